# 2D `with boxes` of a profile through the grid: solid half-dense bars with their border
# (set style fill), narrower transparent bars of a set width over them, and a profile
# with y error bars joined by lines (yerrorlines), with a key.
# The plots are split between the ranks by order: every rank count must draw each bar
# once, later plots in front.
load "common_small.gp"
set key top right
set xrange [0:1]; set yrange [*:*]
set samples 12
set style fill solid 0.5 border
set out "boxes2d.png"
plot "+" using 1:(voxel($1, 0.5, 0.3)) with boxes lc rgb "dark-orange" title "z = 0.3", \
     "+" using 1:(voxel($1, 0.5, 0.7)):(0.04) with boxes fs transparent solid 0.6 \
         lc rgb "blue" title "z = 0.7", \
     "+" using 1:(voxel($1, 0.3, 0.5)):(0.05) with yerrorlines pt 6 lc rgb "dark-green" \
         title "y = 0.3"
