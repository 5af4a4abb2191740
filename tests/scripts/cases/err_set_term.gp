# an unsupported terminal: the error lists the supported ones (pvox decision 10)
print "before"
set term svg
