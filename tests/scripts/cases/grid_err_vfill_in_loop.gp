# an error in the 2nd pass of a loop of fills (no rank may hang)
$a << EOD
0.5 0.5 0.5
EOD
set vgrid $g size 10
set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]
do for [name in "$a $b"] {
  print "fill from ", name
  vfill name using 1:2:3:(0.2):(1)
  print voxel(0.5, 0.5, 0.5)
}
