# set table + plot without `with table`: gnuplot's curve format ("# Curve 0 of 2, ...",
# x y type with i/o/u), to a file, to stdout and to a datablock
# oracle: mpi
$d << EOD
1 2
2 4
3 9

5 1
EOD
set samples 5
set table "t22a.txt"
plot '+' using 1:($1**2) with lines, '+' using 1:(sin($1)) with points title "sin"
unset table
set table $t
plot $d u 1 : 2 every 1 w p, $d notitle, $d title "ab", $d using 1:($1 > 2 ? 1/0 : $2)
plot $d using 1:($1==2 ? NaN : $2) with lines, $d using 1:2 with table
unset table
print $t
set xrange [0:2]
set yrange [0:3]
set table
plot '+' using 1:($1*2) with linespoints
plot $d using 1:2 with lp
set xrange [*:*]
set yrange [*:*]
plot "data_blocks.dat" using 1:2 with lines
plot "data_blocks.dat" index 1 using 2:1 with points
plot [0:1] '+' using 1:(exp($1))
set table $x
plot "data_points.dat" using 1:($2+0.5) every 2 w l lw 2 lc rgb "red"
plot $d using ($1*1e6):($2/7.0) with p
unset table
print $x
# splot: "# Surface" / "# IsoCurve" blocks (the last data block first), undefined points
# as 0 0 0 u; gnuplot 5.4.4 cannot tabulate pm3d (only the header and a message)
$s << EOD
1 2 3
2 4 5

3 9 1

4 1 2
5 1 1
EOD
set table $u
splot $s using 1:2:($3 == 1 ? 1/0 : $3) with points notitle
set zrange [0:2.5]
splot $s using 1:2:3 with lines title "zz"
set zrange [*:*]
set samples 3, 2
set isosamples 3, 2
splot '++' using 1:2:($1+$2) with points, $s using 1:2:3 with impulses
unset table
print $u
set table
splot '++' using 1:2:($1*$2) with pm3d
