# vclear of a name that is no grid (gnuplot 5.4: "no such voxel grid")
set vgrid $g size 10
print "before"
vclear $nope
