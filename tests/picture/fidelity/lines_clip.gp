# Lines leaving the box are clipped in 3D at the x, y and z ranges (the svg's paths end
# at the box), impulses rise from z = 0; the view from below puts the low slabs in front.
set xrange [0:1]; set yrange [0:1]; set zrange [-0.5:1]
set view 115,40
set border 15
unset key; unset colorbox
$zig << EOD
-0.2 0.2 0.1
0.3 0.3 1.4
0.6 0.5 -0.3
0.9 0.8 0.8
1.3 0.9 0.2
EOD
$imp << EOD
0.2 0.7 0.8
0.4 0.8 -0.4
0.7 0.2 0.6
0.85 0.6 0.9
EOD
splot $zig with lines lc rgb "red" lw 1.5, $imp with impulses lc rgb "blue" lw 3
