# isosurfaces need a voxel grid, not a datablock
$d << EOD
0.1 0.2 0.3
0.4 0.5 0.6
EOD
splot $d with isosurface level 1
print "not reached"
