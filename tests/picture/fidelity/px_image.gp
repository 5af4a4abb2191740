# 2D `with image` from matrix data: one pixel per value around each point (the x/y
# ranges autoscaled to the outer pixel edges), palette colours with the colour box at
# gnuplot's 2D position, a NaN and a missing value left as background, a non-number read
# as 0, y tics from a labelled list. Checked pixel by pixel.
set title "matrix with image"
set datafile missing "?"
set ytics ("first" 0, "second" 1, "third" 2, "%.1f" 3)
set cblabel "value"
$m << EOD
0 1 2 3 4
5 NaN 7 ? 9
9 8 Junk 6 5
4 3 2 1 0
EOD
plot $m matrix with image notitle
