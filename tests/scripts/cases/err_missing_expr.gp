# an assignment without a value
print "not printed"
x =
