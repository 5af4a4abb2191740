# foreign file: written by h5py, no pvox attributes, no creation order; x is the fastest axis
vload $ok "bad.h5"
show vgrid
set vxrange [0:2]
set vyrange [0:2]
set vzrange [0:2]
# numpy arange(27).reshape(3,3,3) is [z][y][x]: voxel(x,y,z) = 9z + 3y + x
print voxel(1, 2, 0), voxel(2, 0, 1), voxel(0, 1, 2)
