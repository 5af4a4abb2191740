# Draws bench_scale.sh's sweeps (bench/README.md, "A 1024^3 job end to end"): the wall
# time of each phase of bench/scale_job.gp against the grid size (DIR/scale_size.dat, 2
# ranks) and against the rank count at NR^3 (DIR/scale_ranks.dat), as OUT/scale_size.png
# and OUT/scale_ranks.png.
#     pvox -e "DIR='build/bench_scale'; OUT='bench'; F=10; NR=1024" bench/scale_plot.gp
# (gnuplot 5.4 draws the same pictures from it).
if (!exists("DIR")) DIR = "."
if (!exists("OUT")) OUT = "."
if (!exists("F")) F = 10
if (!exists("NR")) NR = 1024
set term pngcairo size 900,600 font ",10"
set grid
set key outside right top
set ylabel "wall seconds (whole process, per phase)"
set logscale y
set style data linespoints
# columns of scale_size.dat after N (scale_ranks.dat: after ranks and threads)
names = "start-up set-up fill fill-kernel checksum checkpoint ckpt-kernel 201-isosurfaces iso-kernel 3-slices slices-kernel sequence seq-kernel exit whole"
wall = "1 2 3 6 8 10 12 14 15"
colors = "#9400d3 #009e73 #56b4e9 #e69f00 #d4c000 #0072b2 #e51e10 #000000 #777777"

set output OUT."/scale_size.png"
set title sprintf("bench/scale_job.gp at 2 ranks x 1 thread, %d sequence frames", F) noenhanced
set xlabel "grid size N (N^3 voxels)"
set logscale x 2
set xtics (256, 512, 1024)
plot for [i=1:words(wall)] DIR."/scale_size.dat" using 1:(column(int(word(wall, i)) + 1)) \
        title word(names, int(word(wall, i))) lw 2 lc rgb word(colors, i)
unset logscale x

set output OUT."/scale_ranks.png"
set title sprintf("bench/scale_job.gp at %d^3 on a 2-core machine, %d sequence frames", NR, F) noenhanced
set xlabel "layout (ranks x threads)"
# one tic a layout, labelled "ranks x threads", at the row's index
layouts = system("awk '!/^#/ && NF { printf \"%dx%d \", $1, $2 }' ".DIR."/scale_ranks.dat")
set xtics ()
do for [i=1:words(layouts)] { set xtics add (word(layouts, i) i - 1) }
set xrange [-0.3:words(layouts) - 0.7]
plot for [i=1:words(wall)] DIR."/scale_ranks.dat" using 0:(column(int(word(wall, i)) + 2)) \
        title word(names, int(word(wall, i))) lw 2 lc rgb word(colors, i)
set output
