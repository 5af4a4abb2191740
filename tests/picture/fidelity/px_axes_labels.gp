# Zero axes (dotted default, lt -1 solid), tics and labels on the axes, no border, 3D
# labels (first, graph and screen coordinates, with a point), a log colour axis with its
# minor tics and the cb label by the box; the points outside the z range are not drawn.
set border 0
set xzeroaxis; set yzeroaxis lt -1; set zzeroaxis
set tics axis nomirror
set xyplane at 0
set view 64, 33
set xrange [-4:4]; set yrange [-4:4]; set zrange [-4:4]
set label 1 "X" at 4.2, 0, 0
set label 2 "top" at graph 0.5, 0.5, 1 centre front
set label 3 "corner" at screen 0.02, 0.95
set label 4 "p" at -2, 2, 2 point pt 7 offset 1, 0
set log cb; set cbrange [0.5:50]; set cblabel "density"
unset key
$p << EOD
1 1 1 2
-2 1 -1 20
2 -3 2 0.7
0 0 7 5
EOD
splot $p using 1:2:3:4 with points pt 7 ps 1.5 lc palette
