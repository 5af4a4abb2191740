# eval of command strings
# oracle: mpi
eval "a = 3"
print a
eval "print 'evaluated print'"
eval sprintf("b%d = %d", 2, 20)
print b2
do for [i = 1:3] { eval sprintf("v%d = %d * 10", i, i) }
print v1, v2, v3
cmd = "c = a * 2; print 'c is ', c"
eval cmd
eval "f(x) = x ** 2"
print f(5)
eval "do for [k=1:2] { print 'k=', k }"
eval "if (a > 2) { print 'a > 2' }"
s = "print"
eval s . " 'joined'"
