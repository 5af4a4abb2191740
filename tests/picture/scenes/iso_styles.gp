# Isosurface styles: lighting with a highlight (also on a pm3d slice), triangles, a palette
# coloured surface cut by the z range next to a two-sided one.
load "common_small.gp"
set vgrid $w size 17
set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]
vfill $charges using 1:2:3:(2):($4*pot(VoxelDistance))
set zrange [0.1:0.9]
set pm3d lighting primary 0.6 specular 0.4
set isosurface triangles
set cbrange [-3:3]
set urange [0:1]; set vrange [0:1]
set samples 9; set isosamples 9
set out "iso_styles.png"
splot $w with isosurface level 2 lc palette, $w with isosurface level -2, \
      "++" using 1:2:(0.3 + 0.3*$1):(voxel($1, $2, 0.3 + 0.3*$1)) with pm3d
