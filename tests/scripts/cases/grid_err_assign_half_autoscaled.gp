# a range fixed at one end only is still autoscaled for the grid
set xrange [0:1]; set yrange [0:1]; set zrange [*:1]
set vgrid $g size 10
set vxrange [0:1]
print "before"
voxel(0, 0, 0) = 1
