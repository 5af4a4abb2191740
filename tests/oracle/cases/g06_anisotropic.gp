# anisotropic spacing (dx 0.05, dy 0.5, dz 5): the brick half-width floor(r/delta) differs
# per axis, the sphere is in user units; radii below, at and above one spacing
# oracle: np=1,2,3,4 threads=1,2
set vgrid $g size 13
set vxrange [0:0.6]; set vyrange [0:6]; set vzrange [-30:30]
$p << EOD
0.3  3    0     0.05
0.32 3.2  1.3   0.5
0.1  5.9  -28   4.99
0.55 0.3  12.5  5
0.33 3.3  23    7.5
EOD
# one source at a time; every touched node lies within 2 z planes of the point's
do for [row=0:4] {
  vclear
  vfill $p every ::row::row using 1:2:3:4:(100 + VoxelDistance)
  n = 0; s = 0.0
  kc = ceil((word($p[row+1], 3) + 30)/5.)
  do for [k=(kc < 2 ? 0 : kc - 2):(kc > 10 ? 12 : kc + 2)] { do for [j=0:12] { do for [i=0:12] {
    v = voxel(i/20., j*0.5, -30 + k*5)
    if (v != 0) { n = n + 1; s = s + v; print sprintf("row %d node %d %d %d %.9g", row, i, j, k, v) }
  } } }
  print sprintf("row %d: %d voxels, sum %.9g, VoxelDistance %.17g", row, n, s, VoxelDistance)
}
vclear
vfill $p using 1:2:3:($4*2):($4 - VoxelDistance)
do for [k=0:12:3] { do for [j=0:12] {
  s = sprintf("k%d j%d", k, j)
  do for [i=0:12] { s = s . sprintf(" %.9g", voxel(i/20., j/2., -30 + k*5)) }
  print s
} }
show vgrid
