# Isosurface styles: lighting with a highlight, triangles, a palette coloured surface cut
# by the z range next to a two-sided one.
load "common_small.gp"
set vgrid $w size 17
set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]
vfill $charges using 1:2:3:(2):($4*pot(VoxelDistance))
set zrange [0.1:0.9]
set pm3d lighting primary 0.6 specular 0.4
set isosurface triangles
set out "iso_styles.png"
splot $w with isosurface level 2 lc palette, $w with isosurface level -2
