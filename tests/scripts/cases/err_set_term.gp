# an unsupported terminal: the error lists the supported ones (DEC-10)
print "before"
set term svg
