# element kinds this version does not draw: each kind is named once per script (not once
# for all kinds), the other elements are drawn; a plot of only such elements writes no
# picture and the script goes on (exit status 0)
set output "kinds.png"
$d << EOD
0 0 0
1 1 1
EOD
splot $d with lines, x*y, $d with points
splot $d with lines, x*y, $d with points
splot $d with impulses
set output "none.png"
splot x*y
splot $d with linespoints
print "went on"
