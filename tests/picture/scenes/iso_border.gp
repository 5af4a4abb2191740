# Polygon outlines (`set pm3d border`) on a pm3d slice and on a surface with one colour
# for both sides (`noinsidecolor`, so `lc rgb` counts), drawn as quads (`mixed`).
# Outlines on a slab boundary may differ in a few pixels between rank counts (they are
# lines with a width that spill over the boundary), within the determinism tolerance.
load "common_small.gp"
set vgrid $w size 17
set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]
vfill $charges using 1:2:3:(2):($4*pot(VoxelDistance))
set pm3d border lc rgb "#404040" lw 0.5
set isosurface noinsidecolor
set cbrange [-3:3]
set urange [0:1]; set vrange [0:1]
set samples 7; set isosamples 7
set out "iso_border.png"
splot $w with isosurface level 1.5 lc rgb "#C08040", \
      "++" using 1:(0.6):2:(voxel($1, 0.6, $2)) with pm3d
