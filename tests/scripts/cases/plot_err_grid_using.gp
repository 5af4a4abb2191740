# a voxel grid takes no using specification (gnuplot: unexpected token "using")
set vgrid $v size 10
set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]
voxel(0.5, 0.5, 0.5) = 1
splot $v using 1:2:3 with points
print "not reached"
