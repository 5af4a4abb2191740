# a grid (datablock) name that does not exist
set vgrid $v size 10
set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]
splot $v with points, $nosuch with points
print "not reached"
