# two grids of different sizes and ranges: fills go to the active grid, contents survive
# switching, `vclear $name` and `vclear` (active) zero one grid only, refills add from zero;
# resize with `set vgrid $b size 10`; `undefine $a`
# oracle: np=1,2,3,4 threads=1,2
$p << EOD
0.5 0.5 0.5 1
0.2 0.9 0.1 -3
0.75 0.25 0.6 2.5
EOD
set vgrid $a size 21
set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]
set vgrid $b size 13
set vxrange [-1:2]; set vyrange [-1:2]; set vzrange [-1:2]
vfill $p using 1:2:3:(0.6):($4 * (1 - VoxelDistance))
set vgrid $a
vfill $p using 1:2:3:(0.3):($4 + VoxelDistance**2)
do for [g in "a b"] {
  eval "set vgrid $" . g
  do for [k=0:20:4] { do for [j=0:20:2] {
    s = sprintf("%s k%d j%d", g, k, j)
    do for [i=0:20] { s = s . sprintf(" %.9g", voxel(i/20., j/20., k/20.)) }
    print s
  } }
}
vclear $b
print sprintf("a after vclear $b: %.9g %.9g", voxel(0.5, 0.5, 0.5), voxel(0.75, 0.25, 0.6))
set vgrid $b
print sprintf("b after vclear $b: %.9g %.9g", voxel(0.5, 0.5, 0.5), voxel(0.75, 0.25, 0.6))
vfill $p using 1:2:3:(1):(1)
set vgrid $a
vclear
vfill $p every ::1 using 1:2:3:(0.15):(10 - VoxelDistance)
do for [k=0:20] {
  s = sprintf("a k%d", k)
  do for [i=0:20] { s = s . sprintf(" %.9g", voxel(i/20., 0.25, k/20.) + voxel(0.2, i/20., k/20.)) }
  print s
}
set vgrid $b
do for [k=0:12] {
  s = sprintf("b k%d", k)
  do for [i=0:12] { s = s . sprintf(" %.9g", voxel(-1 + i/4., 0.5, -1 + k/4.)) }
  print s
}
# resize: contents zeroed, ranges kept, the next fill uses the new spacing (1/3)
set vgrid $b size 10
print sprintf("b10 before the fill: %.9g", voxel(0.5, 0.5, 0.5))
vfill $p using 1:2:3:(0.5):(VoxelDistance + 1)
do for [k=0:9] { do for [j=0:9] {
  s = sprintf("b10 k%d j%d", k, j)
  do for [i=0:9] { s = s . sprintf(" %.9g", voxel(-1 + i/3., -1 + j/3., -1 + k/3.)) }
  print s
} }
# show vgrid lists every grid; this one alone (several: g09_show_vgrid_grids.gp)
undefine $a
show vgrid
