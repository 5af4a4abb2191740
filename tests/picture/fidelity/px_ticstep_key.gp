# An autoscaled z and cb range [-0.98:0.965] keeps the tic step of the data range (0.2)
# on its extended range [-1:1]; `lc palette` points get gnuplot's gradient key sample (a
# row of points from the lowest to the highest colour of the element inside the box).
$d << EOD
0 0 -0.98
1 1 0.965
0.5 0.2 0.3
EOD
splot $d using 1:2:3 with points lc palette, $d using 1:2:(0.5*$3) with points pt 7 lc palette
