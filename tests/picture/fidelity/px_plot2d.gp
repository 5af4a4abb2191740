# A 2D `plot` of grid profiles: gnuplot's automatic margins (title, axis labels, tic
# labels), border, tics with mirrors, a key at the top left with point samples, a label
# at first coordinates, points in two styles. Checked pixel by pixel.
set title "Profile through the grid"
set xlabel "x [m]"
set ylabel "voxel value"
set key top left
set label 1 "peak" at 2.1, 4.2
$d << EOD
0 1
1 2.5
2 4
3 3
EOD
plot $d with points pt 7 title "samples", $d using 1:($2/2) with points pt 5 ps 0.7 title "half"
