# set table + plot ... with table over datablocks: using specs, every, index
# oracle: mpi
$d << EOD
# x y z
1 2 3
2 4.5 -1
3 0.333333333 1e-7

4 8 100
5 10 1e6
6 12.5 -0.0


10 1 2
11 3 4
EOD
set table $t
plot $d using 1:2 with table
unset table
print "using 1:2"
print $t
set table $t
plot $d using 2:1 with table
plot $d using 1:($2*2) with table
plot $d using ($1+$2):(sqrt($1)) with table
plot $d using 0:1 with table
plot $d using (column(0)):(column(-1)) with table
plot $d using 1:(column(-2)) with table
plot $d using 1:2:3 with table
plot $d using 1 with table
plot $d using 1:($3 > 0 ? $3 : 1/0) with table
plot $d using 1:(valid(3)) with table
unset table
print "more using specs"
print $t
set table $t
plot $d every 2 using 1:2 with table
plot $d every ::1 using 1:2 with table
plot $d every ::0::1 using 1:2 with table
plot $d every :2 using 1:2 with table
plot $d index 1 using 1:2 with table
plot $d index 0 using 1:2 with table
plot $d index 0:1 using 1:2 with table
unset table
print "every and index"
print $t
col = 2
set table $t
plot $d using 1:col with table
plot $d using 1:(column(col) + 0.5) with table
unset table
print "column by variable"
print $t
$s << EOD
a 1 x1
b 2 x2
"c d" 3 x3
EOD
set table $t
plot $s using 2:(strlen(strcol(1))) with table
plot $s using 2:(1):(strcol(1)) with table
plot $s using 2:(stringcolumn(3) eq "x2" ? 1 : 0) with table
unset table
print "string columns"
print $t
set table $t
plot for [c=2:3] $d index 0 using 1:c with table
unset table
print "plot for"
print $t
set table $t append
plot $d index 1 using 1:2 with table
unset table
print "append"
print $t
