# a user function called with the wrong number of arguments
f(x) = x + 1
print f(1)
print f(1, 2)
