# Shared by the count_* scenes: a 10^3 grid on [0:9]^3 that is -100 everywhere except 24
# scattered nodes holding -5..5 (two of them exactly 0, four exactly 2), placed so that
# their markers never touch at 400x300. No border and no tics: every coloured blob in the
# picture is a marker. The palette has no white or grey, so markers stand out.
set xrange [0:9]; set yrange [0:9]; set zrange [0:9]
set view 65,40
unset border; unset tics; unset key; unset colorbox
set palette defined (0 "#ff0000", 0.5 "#00c000", 1 "#0000ff")
set vgrid $g size 10
set vxrange [0:9]; set vyrange [0:9]; set vzrange [0:9]
do for [i=0:9] { do for [j=0:9] { do for [k=0:9] { voxel(i, j, k) = -100 }}}
voxel(0,5,8) = 2
voxel(1,1,3) = -4
voxel(1,1,4) = 5
voxel(1,2,5) = -2
voxel(1,3,4) = 3
voxel(1,3,6) = 0
voxel(2,4,2) = 1.5
voxel(2,6,1) = 1
voxel(3,2,6) = -5
voxel(3,8,4) = 2
voxel(4,7,8) = 4.5
voxel(5,1,5) = 2.5
voxel(5,9,8) = -1
voxel(6,3,5) = 3
voxel(6,5,8) = 0
voxel(6,7,2) = -3
voxel(6,7,5) = 5
voxel(7,3,1) = -0.5
voxel(7,7,0) = 2
voxel(8,3,7) = 0.5
voxel(8,6,5) = 4
voxel(8,7,8) = 1
voxel(9,4,8) = 2
voxel(9,8,3) = -2.5
