# The figure of bench_h5.sh: pvox over dd (direct: filled, buffered: hatched) for write
# and read, one group of bars per grid size and rank count, the 0.5 target dashed.
#   gnuplot -e 'dat="bench/h5_bandwidth.dat"; png="bench/h5_bandwidth.png"; title="..."' \
#           bench/h5_bandwidth.gp
set terminal pngcairo size 960,520 font ",11"
set output png
set title title noenhanced
set ylabel "pvox MB/s / dd MB/s"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
stats dat using 2:3 nooutput
top = STATS_max_x > STATS_max_y ? STATS_max_x : STATS_max_y
stats dat using 4:5 nooutput
top = STATS_max_x > top ? STATS_max_x : top
stats dat using 5 nooutput
top = STATS_max > top ? STATS_max : top
set yrange [0:(top > 0.6 ? top : 0.6) * 1.1]
set key below horizontal
set grid ytics
set arrow from graph 0, first 0.5 to graph 1, first 0.5 nohead dt 2 lw 2 lc rgb "black" front
set label "target 0.5" at graph 0.005, first 0.5 offset 0, 0.6 left front
plot dat using 2:xtic(1) title "write / dd direct" lc rgb "#1f77b4", \
     "" using 3 title "read / dd direct" lc rgb "#ff7f0e", \
     "" using 4 title "write / dd buffered" fs pattern 4 lc rgb "#1f77b4", \
     "" using 5 title "read / dd buffered" fs pattern 4 lc rgb "#ff7f0e"
