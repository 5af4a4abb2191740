# Transparent pm3d slices: three vertical slices cross every slab, one horizontal slice
# lies inside one slab, and opaque voxel points sit between them.
load "common_small.gp"
set cbrange [-3:3]
set urange [0:1]; set vrange [0:1]
set samples 13; set isosamples 13
set style fill transparent solid 0.4
set out "slices.png"
splot for [j=1:3] "++" using (j/4.):1:2:(voxel(j/4., $1, $2)) with pm3d, \
      "++" using 1:2:(0.5):(voxel($1, $2, 0.5)) with pm3d, \
      $v with points above 2 pt 7 ps 0.6 lc rgb "#008000"
