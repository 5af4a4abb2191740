# with isosurface needs a level (gnuplot 5.4: "isosurface requires a level")
set vgrid $v size 10
set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]
splot $v with isosurface
