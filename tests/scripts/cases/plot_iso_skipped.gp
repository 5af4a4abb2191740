# a plot made only of isosurfaces (not drawn by this version): a located warning, no
# picture, and the script goes on (exit status 0)
set output "iso.png"
set vgrid $v size 10
set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]
splot $v with isosurface level 1
print "went on"
