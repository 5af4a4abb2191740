# A second job for the fault sweeps: data files and datablocks in plots, stats, a mesh
# table, vgfill, replot, several isosurface levels, images and labels, 2D plots.
set print "pts.dat"
do for [i=0:49] { print sprintf("%g %g %g %g", cos(i*0.3), sin(i*0.3), 0.02*i - 0.5, i) }
set print
$blk << EOD
0 0 1
1 1 2
2 0 3
EOD
stats "pts.dat" using 1:2 nooutput
set vgrid $g size 20
set vxrange [-1:1]; set vyrange [-1:1]; set vzrange [-1:1]
vgfill "pts.dat" using 1:2:3:(2.0):(1.0)
vfill "pts.dat" using 1:2:3:(0.5):($4/50.0)
set term pngcairo size 160,120
set output "a.png"
splot "pts.dat" using 1:2:3:4 with points lc palette, $g with isosurface level 0.2
set output "b.png"
replot
set table "mesh.vtp"
splot $g with isosurface level 0.3, $g with isosurface level 0.6
unset table
set output "c.png"
plot $blk using 1:2 with lines, $blk using 1:2:3 with labels, "pts.dat" using 1:2 with points
set output "d.png"
plot $blk using 1:2:3 with image
set output "e.png"
set view map
splot "++" using 1:2:(voxel($1,$2,0)) with pm3d
print "done"
