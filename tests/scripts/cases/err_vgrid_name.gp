# a grid name must start with '$'
print "not printed"
set vgrid g size 10
