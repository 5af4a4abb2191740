# stats: one and two columns, name prefixes, ranges (a lone column is tested against the
# y range), every/index, blank lines and data sets, invalid rows, the printed report.
# oracle: mpi
$d << EOD
1 2
2 4
3 6.1
# a comment

4 9
5 1
x y
7 NaN
EOD
$big << EOD
1e6 -2
-3.5 4e-5
123456 7
EOD
stats $d
stats $d using 1
stats $big name "B"
stats $big using 2
print STATS_records, STATS_columns, sprintf("%.10g %.10g %.10g %.10g", STATS_mean, STATS_stddev, STATS_skewness, STATS_kurtosis)
print exists("STATS_mean_x"), exists("STATS_slope")
print B_records, sprintf("%.10g %.10g %.10g %.10g %.10g", B_mean_x, B_mean_y, B_slope, B_intercept, B_correlation)
print sprintf("%.10g %.10g %.10g %.10g", B_slope_err, B_intercept_err, B_pos_min_y, B_pos_max_y), B_index_min_x, B_index_max_y
stats [2:4] $d using 1:2 nooutput name "R"
print R_records, R_outofrange, sprintf("%.10g %.10g %.10g", R_mean_y, R_slope, R_correlation)
set yrange [2:5]
stats $d using 1 nooutput name "Y"
print Y_records, Y_outofrange, Y_min, Y_max
set autoscale y
stats $d every 2 using (2*$1) nooutput
print STATS_records, STATS_sum, STATS_median, STATS_lo_quartile, STATS_up_quartile
stats $d index 0 using 1:2 nooutput
print STATS_records, STATS_blocks, STATS_invalid, STATS_slope
do for [n=1:9] {
    set print $q
    do for [i=1:n] { print i*i }
    unset print
    stats $q nooutput
    print n, STATS_lo_quartile, STATS_median, STATS_up_quartile, sprintf("%.10g %.10g", STATS_kurtosis, STATS_adev)
    undefine $q
}
