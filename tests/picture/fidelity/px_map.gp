# `set view map`: gnuplot's 2D-like layout of a 3D plot seen from above: the map scale,
# x tics below and y tics left of the box, the x and y labels, the title above the box,
# the key inside its top right corner and the colour box beside it, the full height of
# the box; a pm3d function surface under data points (above it: pvox draws a map by
# depth, higher z in front, gnuplot in plot order).
set view map
set samples 9, 7; set isosamples 7, 9
set xlabel "x label"; set ylabel "y label"
set title "map view"
$pts << EOD
-5 -5 60
0 5 60
5 0 60
EOD
splot [-8:8] [-6:6] x*y + 2*x + 3*y with pm3d title "surface", $pts with points pt 7 ps 2 lc rgb "black" title "points"
