# vfill needs 5 using specs; with 4 the 5th is missing
$p << EOD
1 1 1 1
EOD
set vgrid $g size 10
set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]
print "before"
vfill $p using 1:2:3:4
