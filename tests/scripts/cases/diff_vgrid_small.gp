# any grid size N >= 2 is accepted (DEC-1; gnuplot 5.4 wants 10..256)
set vgrid $g size 2
set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]
voxel(1, 1, 1) = 2
voxel(0, 0, 0) = -1
print voxel(0, 0, 0), voxel(0.5, 0.5, 0.5), voxel(1, 1, 1)
