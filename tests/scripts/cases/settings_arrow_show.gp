# `set arrow` / `show arrow` / `unset arrow` as gnuplot 5.4 prints them (this output is
# gnuplot's own): the lowest free tag, coordinate systems, heads, fills, layers, colours,
# head sizes; an existing arrow changes only what is given
set arrow from 0,0,0 to 1,1,1
set arrow 3 from screen 0.1,0.2 to graph 1,1 nohead lw 2 lc rgb 'red' front
set arrow 4 from 0,0 rto 1,2 heads filled size 0.1,20
set arrow from 1,2 to 3,4 backhead empty lt 3
set arrow 1 heads
show arrow
unset arrow 3
show arrow 4
unset arrow
show arrow
