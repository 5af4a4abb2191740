# the article's dipole: 25^3 on [0:1]^3, radius 2 (every voxel), $4*pot(VoxelDistance);
# every node of four z planes and of two x planes, off-node points, show vgrid
# oracle: np=1,2,3,4 threads=1,2
set xrange [0:1]; set yrange [0:1]; set zrange [0:1]
$charges << EOD
0 0 0.75 1
0 0 0.25 -1
EOD
pot(r) = r > 0 ? 1/r : 10**6
set vgrid $v size 25
set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]
vfill $charges using 1:2:3:(2):($4*pot(VoxelDistance))
print "VoxelDistance ", sprintf("%.17g", VoxelDistance)
do for [k in "0 6 13 24"] {
  do for [j=0:24] {
    s = sprintf("z%s y%d", k, j)
    do for [i=0:24] { s = s . sprintf(" %.9g", voxel(i/24., j/24., k/24.)) }
    print s
  }
}
do for [i in "5 18"] {
  do for [k=0:24] {
    s = sprintf("x%s z%d", i, k)
    do for [j=0:24] { s = s . sprintf(" %.9g", voxel(i/24., j/24., k/24.)) }
    print s
  }
}
# off-node points: the ceil rule picks the next node up
do for [n=0:60] {
  x = (n*7 % 61)/60.; y = (n*13 % 61)/60.; z = (n*29 % 61)/60.
  print sprintf("%g %g %g %.9g %.9g", x, y, z, voxel(x, y, z), voxel(x*0.999, y, 1 - z))
}
print sprintf("%.9g %.9g %.9g", voxel(0, 0, 0.75), voxel(0, 0, 0.25), voxel(0.5, 0.5, 0.5))
show vgrid
