# offset, unequal vx/vy/vz ranges (negative, fractional, large offset); per-row radius from
# column 4, value from column 5 and VoxelDistance; nodes and off-node points
# oracle: np=1,2,3,4 threads=1,2
set vgrid $g size 17
set vxrange [-3.5:2.25]; set vyrange [10:12]; set vzrange [-1000:-920]
$src << EOD
# x      y      z      r     w
-3.5    10     -1000   0.8   1.5
-1.2    11.1   -960    12    -2.25
0.3     10.55  -937.5  2.5   0.75
2.25    12     -920    30    3
-0.02   11.99  -999.9  0     7
1.1     10.2   -950.2  5.5   -0.5
EOD
vfill $src using 1:2:3:4:($5 * exp(-VoxelDistance/7) + VoxelDistance)
print sprintf("VoxelDistance %.17g", VoxelDistance)
dx = 5.75/16; dy = 2./16; dz = 80./16
do for [k=0:16:2] {
  do for [j=0:16] {
    s = sprintf("k%d j%d", k, j)
    do for [i=0:16] { s = s . sprintf(" %.9g", voxel(-3.5 + i*dx, 10 + j*dy, -1000 + k*dz)) }
    print s
  }
}
do for [n=0:80] {
  x = -3.5 + 5.75*((n*17) % 81)/80.; y = 10 + 2*((n*5) % 81)/80.; z = -1000 + 80*((n*43) % 81)/80.
  print sprintf("%.6g %.6g %.6g %.9g", x, y, z, voxel(x, y, z))
}
show vgrid
