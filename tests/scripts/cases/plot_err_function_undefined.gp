# a function's undefined variable is reported where it is, when the function is sampled
# (gnuplot 5.4: "undefined variable: qq"); the data elements before it were read
$d << EOD
0 0 0
EOD
set output "f.png"
print "before"
splot $d, x*qq
print "not reached"
