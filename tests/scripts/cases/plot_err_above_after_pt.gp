# `above` must come right after the style, before point options (as in gnuplot)
set vgrid $v size 10
set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]
voxel(0.5, 0.5, 0.5) = 1
splot $v with points pt 7 above 0
print "not reached"
