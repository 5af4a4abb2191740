# show vgrid statistics when voxels hold NaN or +-inf (min/max skip NaN; mean and stddev
# become nan, -nan or inf as gnuplot's plain double sums give them)
# oracle: np=1,2,3,4 threads=1,2
set vgrid $g size 10
set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]
voxel(0,0,0) = 1
voxel(1,1,1) = 2
voxel(0.5,0.5,0.5) = NaN
show vgrid
voxel(0.5,0.5,0.5) = -3.4e38*2
show vgrid
voxel(0.5,0.5,0.5) = 3.4e38*2
show vgrid
voxel(0.5,0.5,0.5) = 1e-45
show vgrid
