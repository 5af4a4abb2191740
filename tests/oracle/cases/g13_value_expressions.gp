# value expressions of vfill: builtins, user functions, ternaries, integer arithmetic,
# column arithmetic, VoxelDistance in comparisons (pvox evaluates them in vector form)
# oracle: np=1,2,3,4 threads=1,2
set vgrid $g size 16
set vxrange [0:3]; set vyrange [0:3]; set vzrange [0:3]
$p << EOD
1.5 1.5 1.5 2 0.5
0.2 2.8 1.0 -1 3
2.9 0.1 2.2 7 -0.25
EOD
a = 3; b = 0.5
f(d) = d < 0.4 ? a*d**2 : (d < 0.8 ? b/d : -log(d))
g(d, w) = w * atan2(d, 1 + w) + floor(d*4) - ceil(d*3) + abs(w - d)
do for [e=1:8] {
  vclear
  if (e == 1) { vfill $p using 1:2:3:(1):(f(VoxelDistance)) }
  if (e == 2) { vfill $p using 1:2:3:(1):(g(VoxelDistance, $4)) }
  if (e == 3) { vfill $p using 1:2:3:(0.9):((VoxelDistance > 0.5) + 2 * (VoxelDistance <= 0.25) + 1/2 + 7/2) }
  if (e == 4) { vfill $p using 1:2:3:(1.1):(cos(VoxelDistance * pi) * sinh($5) + tanh($4) - exp(-$4*VoxelDistance)) }
  if (e == 5) { vfill $p using 1:2:3:(1):($4 ** 2 + VoxelDistance ** 0.5 + 2 ** -3 + (-$4) ** 3) }
  if (e == 6) { vfill $p using 1:2:3:(1.2):(sqrt(VoxelDistance) * log10(1 + $5**2) + int($4 / 2) + sgn($5)) }
  if (e == 7) { vfill $p using ($1+0.01):($2-0.01):($3*0.99):($4 > 0 ? 1 : 0.5):(column(5) * 1e-3 + 1e6) }
  if (e == 8) { vfill $p using 1:2:3:(1):(besj0(VoxelDistance * 5) + erf(VoxelDistance) + norm($5) + invnorm(0.3 + VoxelDistance/4)) }
  do for [k=0:15:5] { do for [j=0:15:2] {
    s = sprintf("e%d k%d j%d", e, k, j)
    do for [i=0:15] { s = s . sprintf(" %.9g", voxel(i*0.2, j*0.2, k*0.2)) }
    print s
  } }
}
print sprintf("VoxelDistance %.17g", VoxelDistance)
