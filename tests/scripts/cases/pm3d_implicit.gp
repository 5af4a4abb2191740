# `set pm3d` makes pm3d implicit, as in gnuplot: every data surface is drawn as pm3d,
# and with its own style too while `set surface` is on (lines are not drawn by pvox,
# and say so, but the pm3d surface is: the picture is written)
$d << EOD
0 0 1
1 0 2

0 1 3
1 1 4
EOD
set pm3d
set output "implicit_lines.png"
splot $d with lines
unset surface
set output "implicit_nosurface.png"
splot $d with lines
set surface
set output "implicit_points.png"
splot $d
set pm3d explicit
set output "explicit.png"
splot $d with lines
print system("for f in implicit_lines implicit_nosurface implicit_points explicit; do test -s $f.png && echo $f written || echo $f none; done")
