# show vgrid with several grids: creation order, "(active)" on one, ranges or "grid
# ranges not set", one blank line after the whole list
# oracle: np=1,2,3,4 threads=1,2
set vgrid $a size 10
set vgrid $b size 11
set vxrange [0:1]; set vyrange [0:2]; set vzrange [0:3]
voxel(0,0,0) = 1
voxel(1,2,3) = -2.5
set vgrid $c size 12
show vgrid
set vgrid $b
show vgrid
unset vgrid $b
show vgrid
print "end"
