# Whole-process isosurface benchmark (bench_iso.sh; bench/README.md, "Isosurfaces"):
# the article's 201 nested transparent isosurfaces, levels -100..100 step 1
# of the dipole of examples/dipole.gp on an N^3 grid, one 800x600 PNG. The same script
# runs under gnuplot 5.4 (N <= 256) and pvox:
#     gnuplot -e 'N=256; out="iso_201.png"' bench/iso_201.gp
#     mpirun -n 2 pvox -e 'N=256; out="iso_201.png"' bench/iso_201.gp -o DIR
if (!exists("N")) N = 256
if (!exists("out")) out = "iso_201.png"
set term pngcairo size 800,600
set xrange [0:1]; set yrange [0:1]; set zrange [0:1]
set view 65,40
set xyplane at -0.1
set border 4095
unset key
$charges << EOD
0 0 0.75 1
0 0 0.25 -1
EOD
pot(r) = r > 0 ? 1/r : 10**6
set vgrid $v size N
set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]
vfill $charges using 1:2:3:(2):($4*pot(VoxelDistance))
set pm3d depthorder
set style fill transparent solid 0.4
set output out
splot for [j=-100:100:1] $v with isosurface level j
set output
