# calling a function that was never defined
f(x) = x**2
print f(3)
print g(3)
