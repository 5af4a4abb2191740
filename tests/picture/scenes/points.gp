# Voxel points coloured by the palette: only voxels above 0.3 (a shell around the
# positive charge), 13^3 grid split into z-slabs across the ranks.
load "common_small.gp"
set cbrange [-3:3]
set out "points.png"
splot $v with points above 0.3 pt 7 ps 0.5 lc palette
