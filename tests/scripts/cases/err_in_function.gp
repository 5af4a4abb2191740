# an error inside a user function body is reported in the body
f(x) = x + offset
print "defined"
y = f(2)
