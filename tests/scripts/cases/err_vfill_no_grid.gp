# vfill with no grid at all
$p << EOD
1 1 1
EOD
print "before"
vfill $p using 1:2:3:(1):(1)
