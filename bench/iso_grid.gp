# The dipole potential of examples/dipole.gp on an N^3 grid, saved as a pvox checkpoint for
# the isosurface kernel benchmark (bench_iso.sh; bench/README.md, "Isosurfaces").
#     pvox -e 'N=256; h5="/abs/dipole_256.h5"' bench/iso_grid.gp
# writes h5 (the grid is /grids/$v) and its .xmf sidecar. vsave paths are not under -o.
if (!exists("N")) N = 256
if (!exists("h5")) h5 = sprintf("dipole_%d.h5", N)
$charges << EOD
0 0 0.75 1
0 0 0.25 -1
EOD
pot(r) = r > 0 ? 1/r : 10**6
set vgrid $v size N
set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]
vfill $charges using 1:2:3:(2):($4*pot(VoxelDistance))
vsave $v h5
