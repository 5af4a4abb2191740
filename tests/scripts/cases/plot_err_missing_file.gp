# a data file that does not exist: as gnuplot, a located warning and the other elements
# are drawn; a plot left with nothing to draw is an error (exit status 1)
set output "missing_file_ok.png"
$d << EOD
0.1 0.2 0.3
EOD
splot $d using 1:2:3 with points, "no_such_file.dat" using 1:2:3 with points
print "drawn without the missing file"
splot "no_such_file.dat" using 1:2:3 with points
print "not reached"
