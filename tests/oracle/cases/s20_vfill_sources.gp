# vfill from a file and a datablock, every, iteration and lists; voxel() afterwards
# (not '+'/'++': gnuplot 5.4.4 feeds vfill only every other sample of them)
# oracle: mpi
set vgrid $g size 11
set vxrange [0:10]; set vyrange [0:10]; set vzrange [0:10]
vfill "data_points.dat" using 1:2:3:(0):($4)
print voxel(1,1,1), voxel(2,2,2), voxel(5,5,5), voxel(9,9,9), voxel(3,3,3)
vclear
vfill "data_points.dat" every ::1 using 1:2:3:(1):($4 * 10)
print voxel(1,1,1), voxel(2,2,2), voxel(2,2,3), voxel(9,9,9), voxel(9,9,8)
vclear
vfill for [k=1:3] "data_points.dat" using 1:2:3:(0):(k)
print voxel(1,1,1), voxel(5,5,5)
vclear
vfill "data_points.dat" using 1:2:3:(0):(1), "data_points.dat" using ($1+1):2:3:(0):(2)
print voxel(1,1,1), voxel(2,1,1), voxel(3,2,2)
vclear
vfill "data_points.dat" using 1:2:3:(1.5):(VoxelDistance)
print voxel(1,1,1), voxel(2,1,1), voxel(2,2,1), voxel(0,0,0)
print "VoxelDistance after: ", VoxelDistance
vclear
vfill "data_points.dat" using ($1 + 0.3):2:3:(0.9):(1)
print voxel(1,1,1), voxel(2,1,1), voxel(1.3,1,1)
vclear $g
$o << EOD
10.5 5 5 1
-1 5 5 1
3 3 3 1
EOD
vfill $o using 1:2:3:(3):(1)
print voxel(10,5,5), voxel(0,5,5), voxel(3,3,3), voxel(3,3,0)
