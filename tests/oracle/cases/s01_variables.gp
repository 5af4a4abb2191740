# variables: assignment, types, exists, undefine
# oracle: mpi
a = 3
b = a * 2.5
c = "text"
print a, b, c
a = a + 1
print "a incremented:", a
a = "now a string"
print a
print exists("a"), exists("b"), exists("nosuch"), exists("pi")
undefine a
print exists("a"), exists("b")
x1 = 1; x2 = 2; x3 = 3; xy = 4
undefine x*
print exists("x1"), exists("x2"), exists("x3"), exists("xy"), exists("b")
d = e = 5
print d, e
f = (g = 4) + 1
print f, g
h = (1, 2, 3)
print h
i = 7; i = i * i; print i
print pi, NaN
pi = 3
print pi
name = "v"
print exists(name), exists(name."ar")
var = 1
print exists(name."ar")
q = 1.5e3; r = -q; print q, r
s = 'single' ; t = "double" ; print s . t
