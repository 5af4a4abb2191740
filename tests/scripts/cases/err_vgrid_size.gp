# a grid needs at least 2 nodes per axis (DEC-1)
print "before"
set vgrid $g size 1
