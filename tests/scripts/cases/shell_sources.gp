# "< command" data sources (README "Data sources"): rank 0 runs the command once per read and every rank reads its output as a file's, in plot with table, stats, vfill and load; the exit status is not looked at (gnuplot neither); `set table "| x"` is a file of that name, as in gnuplot 5.4
set table $t
plot "< printf '1 2\\n2 4\\n\\n3 9\\n'" using 1:2 with table
unset table
print $t
stats "< seq 1 10" using 1 nooutput
print STATS_records, " ", STATS_mean
stats "< printf '5 6\\n7 9\\n8 1\\n'; exit 3" using 1:2 nooutput
print STATS_records, " ", STATS_sum_y, " ", GPVAL_SYSTEM_ERRNO
set vgrid $g size 5
set vxrange [0:4]; set vyrange [0:4]; set vzrange [0:4]
vfill "< printf '2 2 2 0.5 7\\n'" using 1:2:3:4:5
print voxel(2,2,2)
load "< echo 'print \"loaded from a command\"'"
f(n) = sprintf("< seq 1 %d", n)
stats f(4) nooutput
print STATS_max
set table "| not a pipe"
plot "< echo 1 1" with table
unset table
print system("cat '| not a pipe'")
