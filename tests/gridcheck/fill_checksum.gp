# Fills for the rank/thread determinism test (tests/gridcheck/tests.cmake): every vfill
# logs "<grid> checksum <hex>" at -v; the lines must be identical for any rank and thread
# count. A 64^3 grid (even split) and a 101^3 grid (odd split: 51/50, 34/34/33, 26/25/25/25).
seed = 777
set print $src
do for [n=1:240] {
  seed = (seed * 1103515245 + 12345) % 2147483648
  x = seed % 1001
  seed = (seed * 1103515245 + 12345) % 2147483648
  y = seed % 1001
  seed = (seed * 1103515245 + 12345) % 2147483648
  z = seed % 1001
  seed = (seed * 1103515245 + 12345) % 2147483648
  print sprintf("%.3f %.3f %.3f %.3f %d", x/1000., y/1000., z/1000., (seed % 300)/1000., seed % 19 - 9)
}
unset print
$charges << EOD
0 0 0.75 1
0 0 0.25 -1
0.5 0.5 0.5 0.5
1 1 0 -0.25
EOD
pot(r) = r > 0 ? 1/r : 10**6
set vgrid $a size 64
set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]
vfill $charges using 1:2:3:(2):($4*pot(VoxelDistance))
vfill $src using 1:2:3:4:($5 * exp(-VoxelDistance * 10) + sin(VoxelDistance * $5))
vfill $src every 3 using 1:2:3:(0):(1)
vfill $src every ::17::60 using ($1*0.5):($2*0.9):(1 - $3):($4 + 0.1):(1/(1 + 50*VoxelDistance**2))
show vgrid
set vgrid $b size 101
set vxrange [-2:3]; set vyrange [0:10]; set vzrange [-1:1]
vfill $src using ($1*5 - 2):($2*10):($3*2 - 1):($4*6):($5 + VoxelDistance)
vfill $charges using ($1*5 - 2):($2*10):($3*2 - 1):(4):($4*pot(VoxelDistance))
voxel(0.5, 5, 0) = 12345.678
show vgrid
# a fill that modifies nothing, to log the checksum after the assignment above
vfill $charges every ::0::0 using 1:2:3:(-1):(0)
