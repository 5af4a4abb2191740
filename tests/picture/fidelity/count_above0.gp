# Voxel points with the default threshold (strictly above 0) coloured by the palette, the
# colour range taken from the z range [0:9] as gnuplot does (GP-6.3).
load "count_grid.gp"
splot $g with points pt 7 ps 1 lc palette
