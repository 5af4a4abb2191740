# '++' without urange/vrange spans the plot's x and y ranges (DEC-4)
set xrange [0:1]; set yrange [0:2]
set samples 3
set isosamples 2
set table $t
plot '++' using 1:2 with table
unset table
print $t
