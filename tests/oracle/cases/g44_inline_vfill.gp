# vfill from inline data '-': one block per source, two sources in one command,
# comments and a line that looks like a command inside the data, an "end" terminator.
# oracle: np=1,2 threads=1,2
set vgrid $g size 11
set vxrange [0:10]; set vyrange [0:10]; set vzrange [0:10]
vfill '-' using 1:2:3:(1.5):(10 * (2 - VoxelDistance))
2 2 2
# a comment
5 5 5
print "not a command"
e
do for [i=0:10] { print sprintf("%d %.9g %.9g", i, voxel(i,2,2), voxel(i,5,5)) }
vfill "-" using 1:2:3:(1):($4 + VoxelDistance), '-' using 1:2:3:(0.5):(-100)
8 8 8 3
8 2 8 4
end
8 8 8
e
do for [i=0:10] { print sprintf("%d %.9g %.9g", i, voxel(8,i,8), voxel(i,8,8)) }
vfill '-' using 1:2:3:(2):(1)
3 7 1
e
do for [i=0:10] { print sprintf("%d %.9g %.9g", i, voxel(3,i,1), voxel(i,7,1)) }
show vgrid
