# `set object` in a 2D plot: a graph-coordinate background rectangle behind the data, a
# half-dense circle in front, an outlined rotated ellipse (units xy: rotated in plot
# units), a transparent polygon, a pie slice (arc with its wedge), a circle in screen
# coordinates (not clipped) and a rectangle cut at the plot border. Checked pixel by pixel.
set xrange [0:10]; set yrange [0:10]
unset key
set object 1 rect from graph 0,0 to graph 1,1 fc rgb "#eeeeff" behind
set object 2 circle at 3,3 size 1.5 fc rgb "red" fs solid 0.5 front
set object 3 ellipse at 7,7 size 4,2 angle 30 fc rgb "blue" fs empty border lc rgb "blue"
set object 4 polygon from 1,8 to 3,9 to 2,6 to 1,8 fc rgb "green" fs transparent solid 0.4
set object 5 circle at 8,2 size 1 arc [0:270] fc rgb "orange" fs solid
set object 6 circle at screen 0.1,0.1 size screen 0.05 fc rgb "purple"
set object 7 rect from 8,8 to 12,12 fc rgb "cyan"
$d << EOD
5 5
6 2
EOD
plot $d with points pt 7
