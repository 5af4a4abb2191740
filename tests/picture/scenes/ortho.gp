# voxel.dem's last picture in small: three orthogonal transparent slices (pm3d
# interpolate 2,2, noclipcb) coloured on a log colour axis, zero axes with tics on them,
# 3D labels, and a white screen rectangle behind everything (its black outline frames the
# canvas). The slices cross each other and every slab.
set term pngcairo size 320,240
unset key
set border 0
set xrange [-1:1]; set yrange [-1:1]; set zrange [-1:1]
set xtics axis nomirror 0.5; set ytics axis nomirror 0.5; set ztics axis nomirror 0.5
set xyplane at 0
set xzeroaxis lt -1; set yzeroaxis lt -1; set zzeroaxis
set label 1 "X" at 1.1, 0, 0
set label 2 "Z" at 0, 0, 1.15 centre front
set view 48, 114
set palette cubehelix negative
set log cb; unset cbtics
set cbrange [0.05:5]
set vgrid $d size 16
set vxrange [-1:1]; set vyrange [-1:1]; set vzrange [-1:1]
$pts << EOD
0 0 0 1
0.4 0.3 -0.2 0.6
-0.5 -0.2 0.3 0.8
EOD
vfill $pts using 1:2:3:(0.9):($4*(1 - VoxelDistance))**2*5
set samples 12; set isosamples 12
set urange [-1:1]; set vrange [-1:1]
set pm3d depthorder noborder interpolate 2,2 noclipcb
set style fill transparent solid 0.5
set obj 1 rectangle from screen 0,0,0 to screen 1,1,1 behind fs solid 1.0 fc "white"
set out "ortho.png"
splot '++' using 1:(0):2:(voxel($1,0,$2)) with pm3d, \
      '++' using 1:2:(0):(voxel($1,$2,0)) with pm3d, \
      '++' using (0):1:2:(voxel(0,$1,$2)) with pm3d
