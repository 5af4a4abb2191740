# vfill takes exactly 5 using specs (gnuplot 5.4: "Too many columns in using specification")
$p << EOD
1 1 1 1
EOD
set vgrid $g size 10
set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]
vfill $p using 1:2:3:(1):(1):(2)
