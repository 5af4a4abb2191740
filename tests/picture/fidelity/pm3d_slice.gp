# pm3d quad colours (GP-8.2): a "++" slice at x = 0.2 coloured by voxel(), 4x4 quads, each
# the palette colour of the mean of its 4 corner values.
set vgrid $v size 11
set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]
set xrange [0:1]; set yrange [0:1]; set zrange [0:1]
do for [i=0:10] { do for [j=0:10] { do for [k=0:10] {
   voxel(i/10., j/10., k/10.) = j + 2*k + 0.1*i
}}}
set urange [0:1]; set vrange [0:1]
set samples 5; set isosamples 5
set palette defined (0 "red", 0.5 "white", 1 "blue")
unset key; unset colorbox; unset tics; unset border
set view 65,40
splot "++" using (0.2):1:2:(voxel(0.2, $1, $2)) with pm3d
