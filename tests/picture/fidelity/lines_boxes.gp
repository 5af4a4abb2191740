# 2D `with boxes`: touching boxes outlined in red (the automatic width: halfway to the
# neighbours, the end boxes mirrored), and boxes of a set width in blue, twice as wide,
# beside them; bars from y = 0, fill style empty; no key.
unset key
set xrange [0:12]; set yrange [-1:9]
$d << EOD
1 5
2 7
3 6
5 8
EOD
plot $d with boxes lc rgb "red", $d using ($1+6.5):($2/2):(0.4) with boxes lc rgb "blue" lw 2
