# set vxrange/vyrange/vzrange before any grid is kept for the next grid (DEC-2)
set vxrange [0:10]; set vyrange [0:10]; set vzrange [0:10]
set vgrid $g size 11
voxel(5, 5, 5) = 3
print voxel(5, 5, 5), voxel(4.5, 5, 5), voxel(4, 5, 5)
