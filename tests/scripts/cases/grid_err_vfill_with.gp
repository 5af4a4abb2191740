# vfill takes no 'with' clause
$p << EOD
1 1 1 1
EOD
set vgrid $g size 10
set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]
print "before"
vfill $p using 1:2:3:(1):(1) with points
