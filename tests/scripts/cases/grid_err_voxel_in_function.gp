# voxel() read through a user function after the only grid is gone
set vgrid $g size 10
set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]
f(x) = voxel(x, 0, 0) * 2
print f(0.5)
undefine $g
print f(0.5)
