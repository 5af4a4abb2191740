# vfill's "radius R gives a brick of ..." line: gnuplot prints it for every point of a
# source until the first voxel is modified, so negative radii repeat it
# oracle: np=1,2,3,4 threads=1,2
set vgrid $g size 11
set vxrange [0:10]; set vyrange [0:10]; set vzrange [0:10]
$b << EOD
5 5 5 -1
5 5 5 -2
11 5 5 -3
5 5 5 1
5 5 5 -0.5
5 5 5 0
EOD
vfill $b using 1:2:3:4:(1)
vfill $b every ::1 using 1:2:3:4:(2), $b every ::4 using 1:2:3:4:(3)
print voxel(5,5,5), " ", voxel(6,5,5), " ", voxel(5,4,5), " ", voxel(4,4,5)
