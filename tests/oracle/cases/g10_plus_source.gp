# the '+' pseudo-file as a vfill source with an explicit sample range (gnuplot 5.4.4 is
# erratic without one: it takes every other sample, or stale ranges)
# oracle: np=1,2,3,4 threads=1,2
set vgrid $g size 11
set vxrange [0:10]; set vyrange [0:10]; set vzrange [0:10]
set samples 5
vfill [1:9] '+' using 1:($1/2):(10-$1):(1.5):($1*10 + VoxelDistance)
do for [i=0:10] { print sprintf("%d %.9g %.9g %.9g", i, voxel(i,5,5), voxel(i,i/2.,10-i), voxel(i,i/2.+1,10-i)) }
set samples 7
set xrange [0:3]
vfill [1:9] '+' using 1:($1/2):(10-$1):(0):(1)
do for [i=0:10] { print sprintf("%d %.9g %.9g", i, voxel(i,i/2.,10-i), voxel(i,i/2.+1,10-i)) }
vfill [0:10:2] '+' using 1:1:1:(0):(1000)
do for [i=0:10] { print i, " ", voxel(i,i,i) }
vclear
set samples 11
vfill [0:10] '+' using ($1):(5):(5):(0.5):($1+100), [10:0] '+' using (5):1:(5):(1):(-$1)
do for [i=0:10] { print sprintf("%d %.9g %.9g", i, voxel(i,5,5), voxel(5,i,5)) }
show vgrid
