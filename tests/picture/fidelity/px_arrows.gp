# `set arrow` as gnuplot's do_arrow draws it: the default open head, heads at both ends,
# filled and empty heads of a given size and angle, an arrow without head, relative ends
# (rto), screen and first coordinates, colours, widths, back and front.
set xrange [0:1]; set yrange [0:1]; set zrange [0:1]
unset key; unset colorbox
set arrow 1 from 0,0,0 to 1,1,1
set arrow 2 from 0,1,0 to 1,0,1 heads lc rgb "red" lw 2
set arrow 3 from screen 0.1,0.1 to screen 0.3,0.2 filled size screen 0.03,20 front
set arrow 4 from screen 0.8,0.9 rto screen -0.2,0 empty size screen 0.04,30,60 lt 3
set arrow 5 from 0.5,0,0 to 0.5,1,0 nohead lc rgb "blue"
set arrow 6 from 1,0,0.5 rto 0,0.5,0 backhead noborder size screen 0.05,15,45
set samples 2; set isosamples 2
set urange [0:1]; set vrange [0:1]
splot '++' using 1:2:(0.5) with points pt -1
