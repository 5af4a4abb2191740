# `set table` + isosurfaces (a pvox extension): the facets as a text mesh, one polygon a
# block, one vertex `x y z` a line. The table is the same for any rank count (each rank
# writes its own cell layers, in slab order): this golden runs at 1, 2 and 3 ranks.
set vgrid $v size 6
set vxrange [0:5]; set vyrange [0:5]; set vzrange [0:5]
$c << EOD
2.5 2.5 2.5 1
EOD
vfill $c using 1:2:3:(4):(4 - VoxelDistance)
set table $m
splot $v with isosurface level 2.5, $v with isosurface level 3.05
unset table
print |$m|
print $m
set isosurface triangles
set table $t
splot $v with isosurface level 3.05
unset table
print |$t|
