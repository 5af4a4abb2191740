# a string where a number is expected (builtin argument)
x = "abc"
print "before"
print sin(x)
