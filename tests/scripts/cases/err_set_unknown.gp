# `set` with a name gnuplot does not know is an error (DEC-11)
print "not printed"
set xrange [0:1]
set frobnicate 3
