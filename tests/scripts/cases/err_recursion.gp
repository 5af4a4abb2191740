# endless recursion stops cleanly with an error, not a crash
print "before"
f(x) = f(x + 1)
print f(1)
