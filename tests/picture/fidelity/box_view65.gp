# Box corners: all 12 edges of the box (border 4095) on the article's view; the grid has
# no voxel above the threshold, so only the frame is drawn.
set xrange [0:1]; set yrange [0:1]; set zrange [0:1]
set view 65,40
set xyplane at -0.1
set border 4095
unset tics; unset key; unset colorbox
set vgrid $v size 10
set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]
splot $v with points above 10 pt 7
