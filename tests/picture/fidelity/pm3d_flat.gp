# pm3d quad colours, transparent: a horizontal slice z = 0.3 with gnuplot's default
# palette (rgbformulae 7,5,15) and an explicit colour range, fill opacity 0.5.
set vgrid $v size 13
set vxrange [-1:1]; set vyrange [-1:1]; set vzrange [0:1]
set xrange [-1:1]; set yrange [-1:1]; set zrange [0:1]
do for [i=0:12] { do for [j=0:12] { do for [k=0:12] {
   x = -1 + i/6.; y = -1 + j/6.; z = k/12.
   voxel(x, y, z) = 1 - sqrt(x*x + y*y + (z-0.5)**2)
}}}
set urange [-1:1]; set vrange [-1:1]
set samples 7; set isosamples 7
set cbrange [-0.5:1]
set style fill transparent solid 0.5
unset key; unset colorbox; unset tics; unset border
set view 50,120
splot "++" using 1:2:(0.3):(voxel($1, $2, 0.3)) with pm3d
