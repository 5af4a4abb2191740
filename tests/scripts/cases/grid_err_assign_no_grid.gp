# voxel()= with no grid at all (gnuplot 5.4: "vgrid must be set before use")
print "before"
voxel(0, 0, 0) = 1
