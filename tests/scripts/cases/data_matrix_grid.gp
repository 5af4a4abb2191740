# a matrix whose rows differ in length is refused, as by gnuplot
$b << EOD
1 2
3
EOD
print "before"
plot $b matrix using 1:2:3 with table
print "not reached"
