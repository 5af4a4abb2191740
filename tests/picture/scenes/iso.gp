# Opaque isosurfaces of the dipole at +1 and -1 (front and back colours of linetypes 1/2
# and 2/3) with a horizontal pm3d slice (z = 0.4) and voxel points between them: depth is real, so
# the slice and the points hide behind the surfaces where they are behind them.
load "common_small.gp"
set vgrid $w size 21
set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]
vfill $charges using 1:2:3:(2):($4*pot(VoxelDistance))
set cbrange [-3:3]
set urange [0:1]; set vrange [0:1]
set samples 11; set isosamples 11
set out "iso.png"
splot $w with isosurface level 1, $w with isosurface level -1, \
      "++" using 1:2:(0.4):(voxel($1, $2, 0.4)) with pm3d, \
      $w with points above 4 pt 7 ps 0.5 lc rgb "#008000"
