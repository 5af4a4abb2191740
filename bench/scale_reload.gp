# The reload half of the scale benchmark (bench_scale.sh): load the checkpoint that
# bench/scale_job.gp wrote with vsave (any rank count), then draw its middle slice frame
# (x = 0.5, S x S "++" samples with pm3d) as slice_reload.png. `-v` logs the loaded grid's
# checksum; vload itself checks it against the one in the file.
#     mpirun -n 1 pvox -v -e "H5='/abs/scale.h5'" bench/scale_reload.gp -o DIR
if (!exists("S")) S = 200
mark(name) = sprintf("@%s %.6f", name, time(0.0))
print mark("start")
set term pngcairo size 800,600
set xrange [0:1]; set yrange [0:1]; set zrange [0:1]
set urange [0:1]; set vrange [0:1]
set view 65,40
set xyplane at -0.1
set border 4095
unset key
set palette define (0 "red", 0.5 "white", 1 "blue")
set cbrange [-5:5]
set samples S; set isosamples S
print mark("load")
vload $v H5
print mark("frame")
set output "slice_reload.png"
splot "++" using (0.5):1:2:(voxel(0.5,$1,$2)) with pm3d
set output
print mark("end")
