# `set grid`: gnuplot's dotted grid lines (lt 0, width 0.5) at the x and y tics across the
# base plane and at the z tics along the back walls, drawn with the tics; the data is an
# invisible surface (pt -1) so the frame is the whole picture.
set grid xtics ytics ztics
set xrange [0:1]; set yrange [0:1]; set zrange [-1:1]
set samples 6; set isosamples 6
set urange [0:1]; set vrange [0:1]
unset key; unset colorbox
splot '++' using 1:2:($1 - $2) with points pt -1
