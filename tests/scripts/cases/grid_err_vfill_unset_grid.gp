# vfill after the active grid was unset: no current grid
$p << EOD
1 1 1 1
EOD
set vgrid $a size 10
set vgrid $g size 10
unset vgrid $g
print "before"
vfill $p using 1:2:3:(1):(1)
