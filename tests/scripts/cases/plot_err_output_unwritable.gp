# the PNG cannot be written: only rank 0 writes it, so the failure must reach every rank
# (exit status 3, no hang); gnuplot refuses at `set output` already
set vgrid $v size 10
set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]
voxel(0.5, 0.5, 0.5) = 1
set term pngcairo size 160,120
set output "no_such_dir/picture.png"
splot $v with points
print "not reached"
