# a grid name must start with '$' (also without a size)
print "before"
set vgrid grid
