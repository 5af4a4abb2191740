# a few hundred sources written with `set print $db` from integer arithmetic (an LCG),
# overlapping spheres of different radii: per-voxel sums in file order, float storage
# oracle: np=1,2,3,4 threads=1,2
seed = 4242
set print $db
do for [n=1:300] {
  seed = (seed * 1103515245 + 12345) % 2147483648
  x = (seed % 2001) - 1000
  seed = (seed * 1103515245 + 12345) % 2147483648
  y = (seed % 2001) - 1000
  seed = (seed * 1103515245 + 12345) % 2147483648
  z = (seed % 2001) - 1000
  seed = (seed * 1103515245 + 12345) % 2147483648
  r = seed % 41
  w = (seed / 41) % 201 - 100
  print sprintf("%.3f %.3f %.3f %.2f %d", x/1000., y/1000., z/1000., r/100., w)
}
unset print
print $db[1], " | ", $db[300]
set vgrid $m size 32
set vxrange [-1:1]; set vyrange [-1:1]; set vzrange [-1:1]
vfill $db using 1:2:3:4:($5 / (1 + 9*VoxelDistance**2))
print sprintf("VoxelDistance %.17g", VoxelDistance)
d = 2./31
do for [k=0:31:5] {
  do for [j=0:31:3] {
    s = sprintf("k%d j%d", k, j)
    do for [i=0:31] { s = s . sprintf(" %.9g", voxel(-1 + i*d, -1 + j*d, -1 + k*d)) }
    print s
  }
}
# a second pass adds (integer values, sqrt) on top of the first
vfill $db every ::100::199 using 1:2:3:($4/2):(int($5) % 7 + sqrt(VoxelDistance))
do for [k=1:31:6] {
  do for [j=0:31:3] {
    s = sprintf("k%d j%d", k, j)
    do for [i=0:31] { s = s . sprintf(" %.9g", voxel(-1 + i*d, -1 + j*d, -1 + k*d)) }
    print s
  }
}
show vgrid
