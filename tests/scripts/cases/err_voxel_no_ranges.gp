# voxel() on a grid whose ranges were never set: an error (gnuplot 5.4 crashes; DEC-6)
set vgrid $g size 10
print "before"
print voxel(1, 1, 1)
