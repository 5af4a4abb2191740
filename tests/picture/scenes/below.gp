# Seen from below (view 120,300: -z faces the viewer, so the compositor's slab order is
# reversed): transparent slices and jittered points.
load "common_small.gp"
set view 120,300
set cbrange [-3:3]
set urange [0:1]; set vrange [0:1]
set samples 9; set isosamples 9
set style fill transparent solid 0.5
set jitter spread 0.2
set out "below.png"
splot for [j=1:2] "++" using 1:(j/3.):2:(voxel($1, j/3., $2)) with pm3d, \
      $v with points above 0.5 pt 7 ps 0.5 lc palette
