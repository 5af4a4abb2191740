# voxel(x,y,z) = expr: replaces (does not add), float rounding, complex -> real part,
# NaN stored; a grid without vx/vy/vzrange takes the fixed x/y/z ranges at first use and
# keeps them after `set xrange` changes; vfill then adds on top
# oracle: np=1,2,3,4 threads=1,2
set xrange [-2:2]; set yrange [10:30]; set zrange [0:0.5]
set vgrid $g size 15
voxel(0, 20, 0.25) = 1/3.
set xrange [0:1]
print sprintf("%.17g %.17g", voxel(0, 20, 0.25), voxel(0.01, 20, 0.25))
voxel(0, 20, 0.25) = 0.1
voxel(2, 30, 0.5) = {2.5, -1}
voxel(-2, 10, 0) = 16777217
voxel(-1.9, 10.1, 0.01) = NaN
voxel(1, 11, 0.1) = 1e-45
voxel(1, 12, 0.1) = -3.4e38 * 2
voxel(1, 13, 0.1) = 7
voxel(1, 13, 0.1) = -7
do for [k=0:14] { do for [j=0:14:7] {
  s = sprintf("k%d j%d", k, j)
  do for [i=0:14] { s = s . sprintf(" %.9g", voxel(-2 + i*4/14., 10 + j*20/14., k*0.5/14)) }
  print s
} }
$p << EOD
0 20 0.25 3
1.5 12 0.05 1.25
EOD
vfill $p using 1:2:3:4:(1/(1 + VoxelDistance))
do for [k=0:14] { do for [j=0:14] {
  s = sprintf("k%d j%d", k, j)
  do for [i=0:14] { s = s . sprintf(" %.9g", voxel(-2 + i*4/14., 10 + j*20/14., k*0.5/14)) }
  print s
} }
# the NaN and -inf voxels back to 0 before the statistics (non-finite: g12_stats_nonfinite.gp)
voxel(-1.9, 10.1, 0.01) = 0
voxel(1, 12, 0.1) = 0
show vgrid
