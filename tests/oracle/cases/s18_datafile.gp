# data file options seen through set table: skip, missing, commentschars, every, columns
# oracle: mpi
set table $t
plot "data_header.dat" skip 2 using 1:2 with table
unset table
print "skip 2 (the % line is not a comment: x is not a number there)"
print $t
set datafile missing "?"
set table $t
plot "data_header.dat" skip 2 using 1:2 with table
plot "data_header.dat" skip 2 using 1:($2/10) with table
unset table
print "missing ?"
print $t
set datafile commentschars "#%"
set table $t
plot "data_header.dat" skip 2 using 1:2 with table
plot "data_header.dat" skip 2 using 1:(strlen(strcol(3))) with table
unset table
print "commentschars #%"
print $t
set datafile commentschars
set datafile missing
$w << EOD
1 2
3 4
5 6
7 8
9 10
EOD
set table $t
plot $w every 2::1 using 1:2 with table
plot $w every ::1::3 using 1:2 with table
plot $w using 1:($0 * 100) with table
plot $w using 2:1 every 3 with table
plot $w using ($1 > 4 ? $1 : NaN):2 with table
plot $w using 1:(column(1) + column(2)) with table
unset table
print "every and columns"
print $t
set table $t
plot sample [x=0:2:0.5] '+' using 1:(x**2) with table
unset table
print "sample with x"
print $t
set table $t
plot [0:3] '+' using 1:($1*2) with table
unset table
print "range on plot command, samples default 100 (count lines)"
print |$t|
set samples 4
set table $t
plot [-1:1] '+' using 1:(abs($1)) with table
unset table
print $t
