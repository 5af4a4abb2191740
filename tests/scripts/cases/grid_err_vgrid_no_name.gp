# set vgrid needs a name
set vgrid $g size 10
print "before"
set vgrid
