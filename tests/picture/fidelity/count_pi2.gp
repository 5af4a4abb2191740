# `pi 2` keeps the nodes whose three indices are even: 125 of 1000 (GP-6.1), drawn in the
# default colour (linetype 1).
set xrange [0:9]; set yrange [0:9]; set zrange [0:9]
set view 65,40
unset border; unset tics; unset key; unset colorbox
set vgrid $g size 10
set vxrange [0:9]; set vyrange [0:9]; set vzrange [0:9]
do for [i=0:9] { do for [j=0:9] { do for [k=0:9] { voxel(i, j, k) = i + j + k + 1 }}}
splot $g with points pt 7 ps 0.5 pi 2
