# the assigned value must be defined
set vgrid $g size 10
set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]
voxel(0, 0, 0) = 2
print voxel(0, 0, 0)
voxel(0, 0, 0) = 1/0
