# set table + plot with table over data files, '+' and '++'
# oracle: mpi
set table $t
plot "data_blocks.dat" using 1:2 with table
plot "data_blocks.dat" using 1:3 index 1 with table
plot "data_blocks.dat" index 0 every 2 using 1:($2*$3) with table
plot "data_blocks.dat" using 0:-1 with table
plot "data_blocks.dat" using 1:(column(-2)) with table
plot "data_blocks.dat" using ($1 > 100 ? $1 : 1/0):2 with table
unset table
print "data file"
print $t
set datafile separator ","
set table $t
plot "data_comma.csv" using 1:3 with table
unset table
set datafile separator whitespace
print "csv"
print $t
set xrange [0:1]
set samples 5
set table $t
plot '+' using 1:($1**2) with table
plot '+' using 1:(sin($1)):(cos($1)) with table
unset table
print "plus with xrange [0:1], samples 5"
print $t
set table $t
plot sample [t=-1:1:0.5] '+' using (t):(t*t) with table
plot [u=2:3] '+' using 1:1 with table
unset table
print "plus with sample ranges"
print $t
set urange [0:1]
set vrange [-1:1]
set samples 3
set isosamples 4, 3
set table $t
plot '++' using 1:2 with table
plot '++' using 1:2:($1*$2) with table
unset table
print "plusplus, urange [0:1], vrange [-1:1], samples 3, isosamples 4,3"
print $t
set table $t
plot sample [u=0:2:1][v=0:1:0.5] '++' using 1:2 with table
unset table
print "plusplus with sample intervals"
print $t
set table "t_file.txt"
plot "data_blocks.dat" index 0 using 2:1 with table
unset table
print "table file written"
