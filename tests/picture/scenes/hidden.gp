# `set hidden3d` across the slab planes: a function surface with lines that hides a data
# mesh and voxel points behind it, and its own far side. Every rank count must hide the
# same lines.
load "common_small.gp"
set hidden3d
set isosamples 9, 9
set urange [0:1]; set vrange [0:1]
set out "hidden.png"
splot 0.3 + 0.5*exp(-((x - 0.5)**2 + (y - 0.5)**2)*8) lc rgb "dark-red", \
      "++" using 1:2:(0.2 + 0.3*$1) with lines lc rgb "blue", \
      $v with points pt 7 ps 0.3 lc rgb "dark-green"
