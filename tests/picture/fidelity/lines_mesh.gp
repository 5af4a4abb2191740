# Lines in 3D: a gridded datablock drawn with lines (its scan lines and the cross lines
# through the i-th point of every scan) in red, and a helix in blue, twice as wide. The
# base plane sits below the box (xyplane at -0.1, border 15), so no border crosses them.
set xrange [0:1]; set yrange [0:1]; set zrange [0:1]
set view 65,40
set xyplane at -0.1
set border 15
unset key; unset colorbox
set print $mesh
do for [j=0:4] {
    do for [i=0:5] { print sprintf("%g %g %g", 0.05 + 0.18*i, 0.1 + 0.2*j, 0.3 + 0.25*sin(i + 0.7*j)) }
    print ""
}
unset print
set print $helix
do for [k=0:24] { print sprintf("%g %g %g", 0.5 + 0.35*cos(k/2.5), 0.5 + 0.35*sin(k/2.5), 0.1 + k/30.) }
unset print
splot $mesh with lines lc rgb "red", $helix with lines lc rgb "blue" lw 2
