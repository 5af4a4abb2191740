# A data file rank 0 cannot read is a located error, exit 3 on every rank (README "Data sources"): a directory (gnuplot's words)
print "before"
stats "." using 1 nooutput
print "not reached"
