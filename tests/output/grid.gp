# A small sphere's distance field for the writers of output_test.sh.
set vgrid $s size 24
set vxrange [-1:1]; set vyrange [-1:1]; set vzrange [-1:1]
$c << EOD
0 0 0 1
EOD
vfill $c using 1:2:3:(3):(VoxelDistance)
