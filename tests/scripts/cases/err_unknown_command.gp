# a command gnuplot does not have
print "not printed"
frobnicate 3
