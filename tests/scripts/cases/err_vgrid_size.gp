# a grid needs at least 2 nodes per axis (pvox decision 1)
print "before"
set vgrid $g size 1
