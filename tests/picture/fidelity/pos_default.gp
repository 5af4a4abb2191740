# Projected positions on gnuplot's default view (60,30), default xyplane (relative 0.5)
# and ranges that are not [0:1]: voxel nodes (red) and data points (blue).
set xrange [-2:3]; set yrange [0:10]; set zrange [-1:1]
set border 15
unset key; unset colorbox
set vgrid $g size 11
set vxrange [-2:3]; set vyrange [0:10]; set vzrange [-1:1]
voxel(-2, 0, -1) = 1
voxel(3, 0, -1) = 1
voxel(-2, 10, -1) = 1
voxel(3, 10, 1) = 1
voxel(-2, 0, 1) = 1
voxel(0.5, 3, 0.2) = 1
voxel(2, 6, -0.6) = 1
voxel(1, 8, 0.6) = 1
$d << EOD
-1.5 2.5 0.9
2.2 1.1 -0.3
0.4 9.1 -0.8
-0.7 6.3 0.1
EOD
splot $g with points pt 7 ps 1.2 lc rgb "red", \
      $d using 1:2:3 with points pt 7 ps 1.2 lc rgb "blue"
