# a vfill value that fails at run time (gnuplot 5.4: "non-integer operand for %": data
# columns are real) stops the script with the located error on every rank
set vgrid $g size 10
$p << EOD
1 1 1 0 3.5
EOD
set vxrange [0:2]; set vyrange [0:2]; set vzrange [0:2]
vfill $p using 1:2:3:4:($5 % 7)
print "not reached"
