# inline data '-' in the commands that pvox reads but does not carry out (fit, set palette
# file: one warning each) and in vgfill: the data lines are skipped, never run
f(x) = a*x + b
a = 1; b = 0
fit f(x) '-' using 1:2 via a, b
1 2
2 4
3 6
e
print a, b
set palette file '-'
0 0 0
1 1 1
e
set vgrid $g size 5
set vxrange [0:4]; set vyrange [0:4]; set vzrange [0:4]
vgfill '-' using 1:2:3:(1):(10 - GridDistance)
2 2 2
print "data"
e
print voxel(2,2,2), voxel(3,2,2), voxel(0,0,0)
