# Shared preliminaries of the picture scenes (loaded by each scene): a small canvas, the
# article's box, view and palette, two charges and their potential on a small grid.
set term pngcairo size 320,240
set xrange [0:1]; set yrange [0:1]; set zrange [0:1]
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
set vgrid $v size 13
set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]
vfill $charges using 1:2:3:(2):($4*pot(VoxelDistance))
