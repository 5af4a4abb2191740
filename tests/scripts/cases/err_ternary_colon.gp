# '?' without its ':'
print "not printed"
y = 1 ? 2
