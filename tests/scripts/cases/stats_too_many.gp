# stats takes one or two columns (as gnuplot)
print "not printed"
stats $d using 1:2:1
