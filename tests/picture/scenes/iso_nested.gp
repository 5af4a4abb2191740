# Nested transparent isosurfaces (the article's 3D contour plot, fewer levels): blended
# far to near per pixel, so the picture must not depend on the rank count or on how the
# frame is split into z steps.
load "common_small.gp"
set vgrid $w size 21
set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]
vfill $charges using 1:2:3:(2):($4*pot(VoxelDistance))
set style fill transparent solid 0.4
set out "iso_nested.png"
splot for [j=-12:12:2] $w with isosurface level j
