# a vfill source file that cannot be read: the message names the file, located at it,
# on every rank (it had no location)
set vgrid $v size 10
set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]
vfill "nope.dat" using 1:2:3:(1):(1)
print "not reached"
