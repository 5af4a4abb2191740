# Tics listed on a log axis: `set xtics ()` drops the automatic tics (an empty list, as in
# gnuplot), then the listed ones on a base-2 log x axis stand at their values, with the
# labels given or their formatted positions; the y axis keeps its automatic tics. Checked
# pixel by pixel.
set logscale x 2
set xtics ()
set xtics add ("256" 256, "512" 512)
set xtics add (1024)
set key top left
$d << EOD
200 1.5
256 2
512 6
1024 4
1100 5
EOD
plot $d with points pt 7 title "samples"
