# the article's voxel grid filled as in every scene; voxel() values equal gnuplot's
# oracle: mpi
set xrange [0:1]; set yrange [0:1]; set zrange [0:1]
$charges << EOD
0 0 0.75 1
0 0 0.25 -1
EOD
pot(r) = r > 0 ? 1/r : 10**6
set vgrid $v size 25
set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]
vfill $charges using 1:2:3:(2):($4*pot(VoxelDistance))
print "corner ", voxel(0,0,0), " ", voxel(1,1,1)
print "charges ", voxel(0,0,0.75), " ", voxel(0,0,0.25)
print "mid ", voxel(0.5,0.5,0.5), " ", voxel(0.5,0.5,0.25), " ", voxel(0.2,0.7,0.9)
print "outside ", voxel(1.01,0,0), " ", voxel(-0.001,0.5,0.5)
do for [k=0:24:4] { print k, " ", voxel(0.2, 0.3, k/24.) }
s = 0.0
do for [i=0:24] { do for [j=0:24:3] { s = s + voxel(i/24., j/24., 0.5) } }
print "sum ", s
voxel(0.5,0.5,0.5) = 7
print "assigned ", voxel(0.5,0.5,0.5), " ", voxel(0.49,0.5,0.5)
voxel(0.5,0.5,0.5) = 0.1
print "float storage ", voxel(0.5,0.5,0.5)
set vgrid $w size 11
set vxrange [0:10]; set vyrange [0:10]; set vzrange [0:10]
vfill $charges using ($1*10):($2*10):($3*10):(2.5):(1)
print "brick ", voxel(0,0,7.5), " ", voxel(0,0,8), " ", voxel(0,2,8), " ", voxel(2,2,8), " ", voxel(0,0,5)
vfill $charges using ($1*10):($2*10):($3*10):(1.5):(VoxelDistance)
print "distance ", voxel(0,0,8), " ", voxel(1,0,8), " ", voxel(1,1,8), " ", voxel(0,0,9)
print "ceil ", voxel(2.0001,0,0), " ", voxel(2.9999,0,0), " ", voxel(3,0,0)
set vgrid $v
print "back to v ", voxel(0.2, 0.3, 0.5)
