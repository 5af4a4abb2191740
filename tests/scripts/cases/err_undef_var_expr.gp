# an undefined variable inside a longer expression: the caret is under the name
x = 2
print "x = ", x
print x * (1 + potential) / 2
print "not reached"
