# A 2D `plot` of profiles through the grid: voxel() sampled along x with lines, the same
# profile's samples with linespoints, impulses from y = 0, a wide line over
# them and a key. 2D plots are split between the ranks by plot order: every rank count
# must draw each curve once, later plots in front, the key and labels as at one rank.
load "common_small.gp"
set key top right
set xrange [0:1]; set yrange [*:*]
set samples 40
set label 1 "z = 0.5" at graph 0.05, graph 0.9
set out "plot2d.png"
plot "+" using 1:(voxel($1, 0.5, 0.5)) with lines lw 2 title "x profile", \
     "+" using 1:(voxel(0.5, $1, 0.4)) every 4 with linespoints pt 6 ps 0.6 title "y profile", \
     "+" using 1:(voxel(0.5, 0.5, $1)) every 5 with impulses lc rgb "#80000000" lw 4 notitle, \
     "+" using 1:(voxel($1, 0.3, 0.6)) with lines lc rgb "#ff8080" lw 6 title "wide"
