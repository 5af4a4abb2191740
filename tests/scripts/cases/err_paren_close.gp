# one ')' too many
print "not printed"
y = (1 + 2))
