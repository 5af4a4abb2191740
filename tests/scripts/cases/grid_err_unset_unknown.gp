# unset vgrid of a name that is no grid (gnuplot 5.4: "no such vgrid")
set vgrid $g size 10
print "before"
unset vgrid $nope
