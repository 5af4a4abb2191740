# a variable used after undefine
a = 1
print a
undefine a
print a
