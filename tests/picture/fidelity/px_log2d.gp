# Log scales in a 2D plot: x and y logarithmic (base 10 and 2), autoscaled out to whole
# powers, major tics every power with labels, gnuplot's default minor tics between them
# (mirrored), a label in first coordinates, data points; non-positive values left out.
# Checked pixel by pixel.
set logscale x
set logscale y 2
set key top left
set label 1 "here" at 30, 3
$d << EOD
0.5 1
2 3
15 9
300 40
-1 5
4 0
EOD
plot $d with points pt 7 title "samples"
