# Log axes in 3D: a log z surface of the potential's magnitude with pm3d and lines, and
# a log x helix with linespoints, crossing every slab plane. Every rank count must draw
# each line and quad once.
load "common_small.gp"
set logscale z
set logscale x
set xrange [0.01:1]; set zrange [0.01:100]
set urange [0.01:1]; set vrange [0:1]
set cbrange [0.01:100]
set logscale cb
set samples 12; set isosamples 12
set print $helix
do for [k=0:30] { print sprintf("%g %g %g", 10**(-2 + k/15.), 0.5 + 0.3*sin(k/4.), 10**(-2 + k/7.5)) }
unset print
set out "log3d.png"
splot "++" using 1:2:(abs(voxel($1, $2, 0.3)) + 0.02) with pm3d, \
      $helix with linespoints pt 6 ps 0.6 lc rgb "dark-green" lw 1.5
