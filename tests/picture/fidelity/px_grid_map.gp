# `set grid` in `set view map`: solid grid lines of linetype 3, width 2, over the data
# (`front`), and the map's x and y tics.
set view map
set grid front lt 3 lw 2
set xrange [0:1]; set yrange [0:1]
unset key; unset colorbox
splot '++' using 1:2:($1 - $2) with points pt -1
