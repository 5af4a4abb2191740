# voxel()= needs grid ranges: unset vx/vy/vzrange and an autoscaled xrange
set yrange [0:1]; set zrange [0:1]
set vgrid $g size 10
print "before"
voxel(0, 0, 0) = 1
