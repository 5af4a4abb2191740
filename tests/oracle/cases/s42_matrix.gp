# matrix data: uniform matrices (index per matrix, reading ends at a double blank line),
# every per row and column, $0 (the value), column(-1) (the row), column(-2) (the
# matrix), expressions, nonuniform matrix, columnheaders/rowheaders, datablocks, splot
# isocurves (one scan line per row, none between matrices), stats.
# oracle: mpi
$m << EOD
1 2.5 3
4 5 6
7 8 9.75
EOD
set table "m_plot.txt"
plot 'matrix_sets.dat' matrix using 1:2:3:0:(column(-1)):(column(-2)) with table
plot 'matrix_sets.dat' matrix index 2 using 1:2:3 with table
plot 'matrix_sets.dat' matrix index 1 using 2:1:($3*2) with table
plot 'matrix_sets.dat' matrix every 2:1 using 1:2:3 with table
plot 'matrix_sets.dat' matrix every 1:1:1:0:2:1 using 1:2:3 with table
plot $m matrix using ($1*2):2:3:0 with table
plot 'matrix_nonuniform.dat' nonuniform matrix using 1:2:3:0 with table
plot 'matrix_headers.dat' matrix rowheaders columnheaders using 1:2:3 with table
plot '$m' matrix skip 1 using 1:2:3 with table
unset table
set table "m_splot.txt"
splot 'matrix_sets.dat' matrix
splot 'matrix_sets.dat' matrix index 1 using 2:1:3
splot $m matrix every 2:2
splot 'matrix_nonuniform.dat' nonuniform matrix with points
unset table
set table "m_plot2d.txt"
plot $m matrix with lines
unset table
stats 'matrix_sets.dat' matrix nooutput
print STATS_records, STATS_mean, STATS_min, STATS_max, STATS_sum
stats $m matrix using 3 nooutput
print STATS_records, STATS_mean, STATS_stddev
