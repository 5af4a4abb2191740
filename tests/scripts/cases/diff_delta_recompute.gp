# delta follows every range change at once (DEC-5; gnuplot keeps a stale delta)
set vgrid $g size 11
set vxrange [0:10]; set vyrange [0:10]; set vzrange [0:10]
voxel(5, 5, 5) = 1
set vxrange [0:20]
print voxel(5, 5, 5), voxel(10, 5, 5)
