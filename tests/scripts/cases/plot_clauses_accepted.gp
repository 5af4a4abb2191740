# plot clauses gnuplot 5.4 takes and pvox reads: style abbreviations (`w e` is
# errorbars), `with labels` options, `fc ls N` / `fc lt N` (pm3d), `bins`, piecewise
# sample ranges with `*`, a dummy-variable range, open iteration, `lt black`; each kind
# pvox does not draw is named once (2D plots are drawn)
set output "clauses.png"
$d << EOD
1 2 3
2 3 4

1 3 5
2 4 6
EOD
set style line 3 lc rgb "red"
plot $d using 1:2 w e
plot $d using 1:2:(sprintf("%d", $3)) with labels boxed left offset 1,1 point pt 7 tc lt 2 notitle
plot $d using 1:2:(sprintf("%d", $3)) with labels center rotate by 45 font ",8" nopoint, \
     $d using 1:2:3 with labels right offset character 0, graph 0.1, 'x.dat' using 1:2
plot $d using 1:2 bins=5 binrange [0:4] binwidth=0.5 binvalue=avg with impulses
plot sample [*:1] x, [1:2*pi] cos(x), [2*pi:10] (x-8)**2
plot [x=0:1] x**2
splot $d using 1:2:3 with pm3d fc ls 3
splot $d using 1:2:3 with pm3d fc lt 2, $d using 1:2:3 with points lt black
splot for [i=0:*] $d index i using 1:2:3 with lines
splot $d using 1:2:3:(sprintf("%d", $3)) with labels
print "done"
