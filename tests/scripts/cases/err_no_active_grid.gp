# voxel() with no grid at all
print "before"
print voxel(0, 0, 0)
