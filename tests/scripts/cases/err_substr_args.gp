# a builtin called with too few arguments
print "before"
print substr("abc", 1)
