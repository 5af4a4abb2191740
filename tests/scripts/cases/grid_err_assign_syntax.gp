# voxel(x,y) = v: three coordinates needed (gnuplot 5.4: "syntax: voxel(x,y,z) = newvalue")
set vgrid $g size 10
set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]
voxel(0, 0) = 1
