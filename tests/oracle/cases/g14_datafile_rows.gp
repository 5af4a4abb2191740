# vfill from a datablock with a comment, a header line, missing (?), NaN and text values,
# two blank lines (index), every, named columns
# oracle: np=1,2,3,4 threads=1,2
set vgrid $g size 11
set vxrange [0:10]; set vyrange [0:10]; set vzrange [0:10]
$p << EOD
# header comment
x y z w
1 1 1 2
2 2 ? 3
3 3 3 NaN
4 4 4 abc
5 5 5 5


6 6 6 6
7 7 7 7
EOD
vfill $p using 1:2:3:(0):($4)
do for [i=1:7] { print i, " ", voxel(i,i,i) }
vclear
vfill $p index 1 using 1:2:3:(0):($4)
do for [i=1:7] { print i, " ", voxel(i,i,i) }
vclear
set datafile missing "?"
vfill $p every 2 using 1:2:3:(0):(column(4) + 100)
do for [i=1:7] { print i, " ", voxel(i,i,i) }
vclear
vfill $p using "x":"y":"z":(0):(1)
do for [i=1:7] { print i, " ", voxel(i,i,i) }
