# 1/0 is an undefined value; print refuses it
print "before"
print 1/0
