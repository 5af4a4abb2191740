# The whole-job scale benchmark (bench_scale.sh; bench/README.md, "A 1024^3 job end to
# end"): the article's dipole (examples/dipole.gp) on an N^3 grid, then a checkpoint, the
# article's 201 nested transparent isosurfaces (bench/iso_201.gp), one frame of three
# orthogonal "++" slices drawn with pm3d, and F frames of an x = const slice moving through
# the grid (bench/frames_seq.gp). pvox only at N > 256 (vsave is a pvox extension; gnuplot
# 5.4 holds 256^3 at most):
#     mpirun -n 2 --bind-to none pvox -v -e "N=1024; F=100; H5='/abs/scale.h5'" bench/scale_job.gp -o DIR
# Each phase is bracketed by a line "@name EPOCH" (time(0.0), seconds since 1970), so the
# caller can put the process's own start and end on the same clock. H5 unset: no
# checkpoint. ISO=0 / SLICES=0: skip those phases; F=0: no sequence.
if (!exists("N")) N = 256
if (!exists("S")) S = 200
if (!exists("F")) F = 100
if (!exists("ISO")) ISO = 1
if (!exists("SLICES")) SLICES = 1
mark(name) = sprintf("@%s %.6f", name, time(0.0))
print mark("start")
set term pngcairo size 800,600
set xrange [0:1]; set yrange [0:1]; set zrange [0:1]
set urange [0:1]; set vrange [0:1]
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
print mark("fill")
vfill $charges using 1:2:3:(2):($4*pot(VoxelDistance))
print mark("checkpoint")
if (exists("H5")) { vsave $v H5 }
print mark("iso")
if (ISO) {
    set pm3d depthorder
    set style fill transparent solid 0.4
    set output "iso_201.png"
    splot for [j=-100:100:1] $v with isosurface level j
    set output
    unset pm3d
    set style fill solid
}
print mark("slices")
set palette define (0 "red", 0.5 "white", 1 "blue")
set cbrange [-5:5]
set samples S; set isosamples S
if (SLICES) {
    set output "slices.png"
    splot "++" using (0.5):1:2:(voxel(0.5,$1,$2)) with pm3d, \
          "++" using 1:(0.5):2:(voxel($1,0.5,$2)) with pm3d, \
          "++" using 1:2:(0.5):(voxel($1,$2,0.5)) with pm3d
    set output
}
print mark("sequence")
fx(j) = F > 1 ? j/(F-1.) : 0
do for [j=0:F-1] {
    set output sprintf("f%03d.png", j)
    splot "++" using (fx(j)):1:2:(voxel(fx(j),$1,$2)) with pm3d
}
set output
print mark("end")
