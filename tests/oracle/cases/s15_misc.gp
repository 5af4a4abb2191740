# lexical odds and ends: comments, continuations, semicolons, exit
# oracle: mpi
print "a" ; print "b"   # trailing comment
# print "commented out"
print 1 + \
      2
print "hash # inside string", 'and # here'
x = 1;y = 2;print x+y
print ""
print 1,2,3
print "a","b"
  print "leading blanks"
	print "leading tab"
print 1. + .5, 1.e2, 2e+2, 2E-2
print 0x10 + 010 + 10
s = "semi;colon"; print s
do for [i=1:2] { print "loop ", i }; print "after loop on same line"
f(x) = x * \
  2
print f(21)
if (1) { print "multi" ; print "statement block" }
exit
print "never printed"
