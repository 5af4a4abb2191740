# `set parametric`: a data element inside a triple (gnuplot 5.4's message)
$d << EOD
0 0 0
EOD
set parametric
set output "f.png"
splot cos(u), $d, v
print "not reached"
