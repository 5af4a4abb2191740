# vgfill and GridDistance as gnuplot 6.0 defines them (a pvox extension; not in 5.4):
# radius and GridDistance in grid index units, so the anisotropic z spacing does not matter
$p << EOD
5 5 0.5
EOD
set vgrid $g size 11
set vxrange [0:10]; set vyrange [0:10]; set vzrange [0:1]
vgfill $p using 1:2:3:(1):(GridDistance + 10)
print voxel(5, 5, 0.5), voxel(6, 5, 0.5), voxel(5, 5, 0.6), voxel(5, 5, 0.7), voxel(6, 6, 0.5)
print exists("GridDistance")
