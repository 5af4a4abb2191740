# resizing an existing grid goes through the same check; the small grid was usable
set vgrid $g size 16
set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]
voxel(0.5, 0.5, 0.5) = 3
print voxel(0.5, 0.5, 0.5)
set vgrid $g size 256
print "not reached"
