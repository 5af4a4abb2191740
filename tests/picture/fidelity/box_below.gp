# Box corners seen from below (view 120,300), ranges that are not [0:1].
set xrange [-1:2]; set yrange [10:20]; set zrange [0:5]
set view 120,300
set border 4095
unset tics; unset key; unset colorbox
set vgrid $v size 10
set vxrange [-1:2]; set vyrange [10:20]; set vzrange [0:5]
splot $v with points above 10 pt 7
