# element kinds (and clauses) this version does not draw: each kind is named once per script (not once
# for all kinds), the other elements are drawn; a plot of only such elements writes no
# picture and the script goes on (exit status 0)
set output "kinds.png"
$d << EOD
0 0 0
1 1 1
EOD
splot $d with boxes, x*y, $d with points
splot $d with boxes, x*y, $d with points
splot $d using 1:2:3:(1):(1):(1) with zerrorfill
set output "none.png"
splot x*y with candlesticks
splot $d using 1:2:3:(0.1) with circles
# lines are drawn, solid: a dash type is named once, `dt solid` and `dt 1` are not
set output "dashes.png"
splot $d with lines dt solid, $d with lines dt 1, $d with lines dt 2, $d with lines dt "-."
print "went on"
