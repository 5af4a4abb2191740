# splot with a style name gnuplot does not know: located at the style word. pvox checks
# the whole script before running it, so (unlike gnuplot) "before" is not printed
set vgrid $v size 10
set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]
voxel(0.5, 0.5, 0.5) = 1
print "before"
splot $v with foo
print "not reached"
