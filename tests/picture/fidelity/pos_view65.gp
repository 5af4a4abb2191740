# Projected positions (GP-10.2): voxel nodes at the 8 box corners and inside (red), data
# points off the nodes (blue), the article's view. Border 15 only draws the base plane at
# z = -0.1, so no border line crosses a marker; its 4 edges are checked too.
set xrange [0:1]; set yrange [0:1]; set zrange [0:1]
set view 65,40
set xyplane at -0.1
set border 15
unset key; unset colorbox
set vgrid $v size 10
set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]
do for [i=0:1] { do for [j=0:1] { do for [k=0:1] { voxel(i, j, k) = 1 }}}
voxel(5/9., 2/9., 7/9.) = 1
voxel(3/9., 6/9., 4/9.) = 1
voxel(7/9., 7/9., 2/9.) = 1
voxel(2/9., 3/9., 1/9.) = 1
$d << EOD
0.31 0.12 0.45
0.83 0.41 0.66
0.15 0.88 0.91
0.62 0.67 0.05
0.47 0.29 0.22
0.93 0.95 0.37
EOD
splot $v with points pt 7 ps 1.2 lc rgb "red", \
      $d using 1:2:3 with points pt 7 ps 1.2 lc rgb "blue"
