# A plot's data pass evaluated by the ranks in shares (pure using specs) or whole on every
# rank (a spec that assigns): every rank count prints the same extents, and a spec with
# side effects sees each row exactly once, as in gnuplot.
set term pngcairo size 200,150
set out "split.png"
set xrange [0:1]; set yrange [0:1]; set zrange [0:1]
set urange [0:1]; set vrange [0:1]
set samples 30; set isosamples 30
set vgrid $v size 12
set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]
$src << EOD
0.3 0.6 0.4 1
0.8 0.2 0.7 -2
EOD
vfill $src using 1:2:3:(0.6):($4*exp(-VoxelDistance**2/0.05))
set print $pts
do for [i=0:299] { print sprintf("%g %g %g", i/299., 0.5 + 0.4*sin(i/20.), 0.35) }
unset print
show_cb(what) = sprintf("%s: cb [%.6g:%.6g]", what, GPVAL_CB_MIN, GPVAL_CB_MAX)
splot "++" using 1:2:(0.4):(voxel($1, $2, 0.4)) with pm3d
print show_cb("'++' and voxel()")
splot $pts using 1:2:3:(voxel($1, $2, $3)*10) with points lc palette
print show_cb("datablock and voxel()")
splot "++" using 1:2:(0.5):(voxel($1, $2, 0.4) > 0.1 ? voxel($1, $2, 0.7) : 3) with pm3d
print show_cb("voxel() a first pass cannot foresee")
n = 0
splot "++" using 1:2:(n = n + 1, 0.5):(voxel($1, $2, 0.4) + n/1000.) with pm3d
print show_cb("a spec that assigns")
print sprintf("rows seen: %d", n)
