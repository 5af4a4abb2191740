# exists() sees grids and datablocks; an int() operand makes % legal in a vfill value
# oracle: np=1,2 threads=1,2
set vgrid $g size 10
$p << EOD
1 1 1 0 3
EOD
set vxrange [0:2]; set vyrange [0:2]; set vzrange [0:2]
vfill $p using 1:2:3:4:(int($5) % 2 + VoxelDistance)
print voxel(1,1,1)
print exists("$g"), exists("$p"), exists("$q")
