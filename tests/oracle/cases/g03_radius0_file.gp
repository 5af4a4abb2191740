# radius 0 on a data file (only the ceil node of each point), delta 0.3 (not exact in
# binary), repeated rows add up; then radius 0.3 (= delta: the 6 face neighbours) with
# VoxelDistance; every node printed
# oracle: np=1,2,3,4 threads=1,2
set vgrid $g size 10
set vxrange [0:2.7]; set vyrange [0:2.7]; set vzrange [0:2.7]
vfill "data_grid_r0.dat" using 1:2:3:(0):($4)
vfill "data_grid_r0.dat" using 1:2:3:(0):($4/3)
do for [k=0:9] {
  do for [j=0:9] {
    s = sprintf("k%d j%d", k, j)
    do for [i=0:9] { s = s . sprintf(" %.9g", voxel(i*0.3, j*0.3, k*0.3)) }
    print s
  }
}
show vgrid
vclear
vfill "data_grid_r0.dat" every 3 using 1:2:3:(0.3):(VoxelDistance*$4)
print sprintf("VoxelDistance %.17g", VoxelDistance)
do for [k=0:9] {
  do for [j=0:9] {
    s = sprintf("k%d j%d", k, j)
    do for [i=0:9] { s = s . sprintf(" %.9g", voxel(i*0.3, j*0.3, k*0.3)) }
    print s
  }
}
show vgrid
