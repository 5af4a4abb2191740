# Frame-sequence benchmark job (bench_frames.sh; bench/README.md, "Frame sequences"): the
# article's dipole (spec/article-scenes/a6_anim.gp) on an N^3 grid, then F frames, each an
# x = const slice of the grid drawn with pm3d on an S x S sample grid, W x H pngcairo PNGs
# OUT/f000.png ... The same script runs under gnuplot 5.4 and pvox:
#     gnuplot -e "N=128; S=100; F=100; W=800; H=600; OUT='/tmp/fr'" bench/frames_seq.gp
#     mpirun -n 2 --bind-to none pvox -e "N=128; S=100; F=100; OUT='/tmp/fr'" bench/frames_seq.gp
# F=0 is the same job without the frames (start-up and fill only). H5='/abs/grid.h5' also
# saves the grid with vsave after the fill (pvox only: vsave is a pvox extension), for the
# ParaView side (frames_pvbatch.py). Every range is fixed, so all frames share one frame.
if (!exists("N")) N = 128
if (!exists("S")) S = 100
if (!exists("F")) F = 100
if (!exists("W")) W = 800
if (!exists("H")) H = 600
if (!exists("OUT")) OUT = "."
set term pngcairo size W,H
set xrange [0:1]; set yrange [0:1]; set zrange [0:1]
# "++" samples u and v (gnuplot's default [-5:5]; pvox's the x and y ranges, README DIFF-4)
set urange [0:1]; set vrange [0:1]
set cbrange [-5:5]
set view 65,40
set xyplane at -0.1
set border 4095
unset key
$charges << EOD
0 0 0.75 1
0 0 0.25 -1
EOD
set palette define (0 "red", 0.5 "white", 1 "blue")
pot(r) = r > 0 ? 1/r : 10**6
set vgrid $v size N
set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]
vfill $charges using 1:2:3:(2):($4*pot(VoxelDistance))
if (exists("H5")) { vsave $v H5 }
set samples S; set isosamples S
# x of frame j: j/(F-1), the first frame at x = 0, the last at x = 1 (one frame: x = 0)
fx(j) = F > 1 ? j/(F-1.) : 0
do for [j=0:F-1] {
    set output sprintf("%s/f%03d.png", OUT, j)
    splot "++" using (fx(j)):1:2:(voxel(fx(j),$1,$2)) with pm3d
}
set output
