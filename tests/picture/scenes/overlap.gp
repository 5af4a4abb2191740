# Markers that overlap across a slab plane: two large opaque markers whose centres lie on
# either side of the plane z = 0.5 (the slab boundary at 2 ranks). The red one (z = 0.49)
# is nearer the viewer and covers the blue one (z = 0.51) at any rank count: the
# compositor orders two slabs' pixels by the depth of their nearest fragments.
set term pngcairo size 320,240
set out "overlap.png"
set xrange [0:1]; set yrange [0:1]; set zrange [0:1]
set view 65,40
unset key
$a << EOD
0.5 0.5 0.49
EOD
$b << EOD
0.6 0.6 0.51
EOD
splot $a using 1:2:3 with points pt 7 ps 6 lc rgb "red", \
      $b using 1:2:3 with points pt 7 ps 6 lc rgb "blue"
