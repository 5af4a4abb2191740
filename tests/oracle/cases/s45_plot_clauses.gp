# plot clauses gnuplot 5.4 takes: open iteration `for [i=a:*]` over data blocks (the
# first block without data ends it), `volatile`, replot after
# a 2D plot. (`with labels` options, `w e`, `fc ls N` are in the script goldens: pvox's
# table output of those styles is not gnuplot's.)
# oracle: mpi
$d << EOD
1 2 3
2 3 4


3 4 5
4 5 6


5 6 7
EOD
set style line 3 lc rgb "red"
set table "open.txt"
plot for [i=0:*] $d index i using 1:2 with lines title sprintf("block %d", i)
splot for [i=1:*] $d index i using 1:2:3 with points lc 3
unset table
# the end of an open iteration is found without drawing on rand()
set table "open_rand.txt"
plot for [i=0:*] $d index i using 1:(rand(0)) with lines
unset table
set table "clauses.txt"
plot $d using 1:2 volatile with points lc 2
plot $d using 1:2 lc 3 with lines
replot
unset table
print "done"
