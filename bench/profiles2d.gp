# 2D profile benchmark job (bench/README.md, "2D profiles"): the article's dipole on an
# N^3 grid, then F frames, each a 2D `plot` of two profiles through the grid at height
# z_j (voxel() along x and along y, S samples each, with lines), with title, axis labels
# and key, W x H pngcairo PNGs OUT/p000.png ... The same script runs under gnuplot 5.4
# and pvox:
#     gnuplot -e "N=128; S=400; F=50; OUT='/tmp/pr'" bench/profiles2d.gp
#     mpirun -n 2 --bind-to none pvox -e "N=128; S=400; F=50; OUT='/tmp/pr'" bench/profiles2d.gp
if (!exists("N")) N = 128
if (!exists("S")) S = 400
if (!exists("F")) F = 50
if (!exists("W")) W = 800
if (!exists("H")) H = 600
if (!exists("OUT")) OUT = "."
set term pngcairo size W,H
$charges << EOD
0 0 0.75 1
0 0 0.25 -1
EOD
pot(r) = r > 0 ? 1/r : 10**6
set vgrid $v size N
set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]
vfill $charges using 1:2:3:(2):($4*pot(VoxelDistance))
set xrange [0:1]; set yrange [-1.5:1.5]
set samples S
set xlabel "x, y"
set ylabel "potential"
set key top right
fz(j) = F > 1 ? j/(F-1.) : 0
do for [j=0:F-1] {
    set output sprintf("%s/p%03d.png", OUT, j)
    set title sprintf("profiles at z = %.3f", fz(j))
    plot "+" using 1:(voxel($1, 0.5, fz(j))) with lines title "along x", \
         "+" using 1:(voxel(0.5, $1, fz(j))) with lines title "along y"
}
set output
