# gnuplot's corner poles: where the border leaves out a vertical edge (the default border
# has only the left one), a line runs from the base plane to the surface's corners, up or
# down; the surface itself is invisible here (pt -1), so the frame is the whole picture.
set xrange [0:1]; set yrange [0:1]; set zrange [-1.5:2]
set samples 6; set isosamples 6
set urange [0:1]; set vrange [0:1]
unset key; unset colorbox
splot '++' using 1:2:(2*$1 - $2) with points pt -1
