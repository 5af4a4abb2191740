# an iteration limit that is not a finite number within the 64-bit integers is a
# located error (it was cast without a check)
print "before"
do for [i=1e300:1e300] { print i }
print "not reached"
