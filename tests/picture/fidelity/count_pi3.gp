# `pi 3`: indices 0, 3, 6, 9 on each axis, 64 nodes (GP-6.1), coloured by the palette over
# the values 1..10 with the colour range taken from z.
set xrange [0:9]; set yrange [0:9]; set zrange [0:9]
set view 65,40
unset border; unset tics; unset key; unset colorbox
set palette defined (0 "#ff0000", 0.5 "#00c000", 1 "#0000ff")
set vgrid $g size 10
set vxrange [0:9]; set vyrange [0:9]; set vzrange [0:9]
do for [i=0:9] { do for [j=0:9] { do for [k=0:9] { voxel(i, j, k) = (i + j + k) / 3. + 1 }}}
splot $g with points pt 7 ps 0.8 pi 3 lc palette
