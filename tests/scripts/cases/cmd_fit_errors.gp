# gnuplot rejects a fit without `via` (the check pass stops the script before it runs)
print "not printed"
fit a*x $d using 1:2
