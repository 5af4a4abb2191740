# points outside the grid are skipped whole (even when their sphere reaches in); points
# exactly on the faces are inside; negative radius modifies nothing (not even the ceil
# node); NaN coordinates and missing columns are skipped; radius larger than the grid
# oracle: np=1,2,3,4 threads=1,2
set vgrid $g size 12
set vxrange [-1:1.2]; set vyrange [0:1.1]; set vzrange [2:4.2]
$p << EOD
-1.0000001  0.5  3     5     1
1.2000001   0.5  3     5     2
0           -1e-9 3    5     4
0           0.5  4.21  5     8
-1          0    2     0.3   16
1.2         1.1  4.2   0.25  32
0.1         0.55 3.1   -0.5  64
0.1         0.55 3.1   -1e-12 128
0.2         NaN  3     1     256
0.3         0.3
0.4         0.4  2.9   0.2   512
EOD
vfill $p using 1:2:3:4:($5 + VoxelDistance/1000)
print sprintf("VoxelDistance %.17g", VoxelDistance)
do for [k=0:11] { do for [j=0:11] {
  s = sprintf("k%d j%d", k, j)
  do for [i=0:11] { s = s . sprintf(" %.9g", voxel(-1 + i*0.2, j*0.1, 2 + k*0.2)) }
  print s
} }
# reads outside: NaN; reads on the faces: the face nodes (voxel(NaN,..) crashes gnuplot 5.4.4)
print voxel(-1.0000001, 0, 2), " ", voxel(1.2, 1.1, 4.2), " ", voxel(1.2000001, 1.1, 4.2)
print voxel(0, -1e-300, 3), " ", voxel(0, 0, 4.2000000001)
vclear
vfill $p every ::6::6 using 1:2:3:4:(1)
vfill $p every ::7::7 using 1:2:3:4:(1)
print "after negative radius only: ", voxel(0.1, 0.55, 3.1)
vfill $p every ::10::10 using 1:2:3:(100):($5 - VoxelDistance)
n = 0
do for [k=0:11] { do for [j=0:11] { do for [i=0:11] {
  if (voxel(-1 + i*0.2, j*0.1, 2 + k*0.2) != 0) { n = n + 1 }
} } }
print "radius 100 touches ", n
print sprintf("%.9g %.9g %.9g", voxel(-1, 0, 2), voxel(1.2, 1.1, 4.2), voxel(0.4, 0.4, 2.9))
show vgrid
