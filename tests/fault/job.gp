# A small job touching every phase that allocates: sources from a data file and "++",
# a value fill, points, an isosurface, pm3d slices, a frame sequence, a checkpoint and
# its reload, 2D plot and a table. Used by the fault sweeps in this folder.
set print "sources.dat"
do for [i=0:19] { print sprintf("%g %g %g", sin(i), cos(i), 0.05*i - 0.5) }
set print
set vgrid $v size 24
set vxrange [-1:1]; set vyrange [-1:1]; set vzrange [-1:1]
vfill "sources.dat" using 1:2:3:(0.4):(1.0)
vfill sample [x=-1:1:0.5][y=-1:1:0.5] "++" using 1:2:(0):(0.3):(VoxelDistance)
set term pngcairo size 200,150
set output "points.png"
splot $v with points pt 7 ps 0.3 lc palette
set output "iso.png"
splot $v with isosurface level 0.5
set pm3d
set output "slice.png"
splot "++" using 1:2:(voxel($1,$2,0)) with pm3d
do for [k=1:3] {
    set output sprintf("frame%d.png", k)
    set view 60, 30*k
    splot $v with isosurface level 0.3*k
}
vsave $v "ck.h5"
vclear $v
vload "ck.h5"
print voxel(0,0,0)
set output "plot2d.png"
plot sin(x), "sources.dat" using 1:2 with points
set table "table.dat"
splot sin(x)*y with lines
unset table
print "done"
