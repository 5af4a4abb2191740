# Checkpoint round trip, load side (tests/io/run_h5_scripts.py): run with -e 'in="NAME"'
# on any rank count. Prints `show vgrid` (same text as h5_save.gp printed) and voxel values
# the checker compares with the formulas of h5_save.gp.
vload in.".h5"
show vgrid
print "a", voxel(-1, 0, 10), voxel(1, 4, 12), voxel(-0.75, 1, 10.5), voxel(0.5, 3.5, 11.75)
set vgrid $b
print "b", voxel(1, 4, -2), voxel(5, 10, 0), voxel(0, 0, -5)
vload $b in."_ba.h5"
print "b2", voxel(1, 4, -2)
vload in."_ba.h5"
print "b3", voxel(5, 10, 0)
set vgrid $a
print "a2", voxel(0, 2, 11)
