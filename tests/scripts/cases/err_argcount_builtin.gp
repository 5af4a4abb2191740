# a builtin called with too many arguments
print "before"
print sin(1, 2)
