# the first vfill needs grid ranges or fixed x/y/z ranges
$p << EOD
0 0 0
EOD
set vgrid $g size 10
vfill $p using 1:2:3:(1):(1)
