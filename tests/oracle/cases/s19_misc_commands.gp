# printerr, reset, loop bounds, strings in loops, nested definitions
# oracle: mpi
printerr "printerr goes to stderr"
set print "-"
print "print goes to stdout now"
printerr "printerr still to stderr"
set print
a = 5
reset
print "after reset a = ", a
do for [i = 1.7:4.2] { print "real bounds ", i }
do for [i = -2:2:2] { print "neg ", i }
do for [i = 10:0:-5] { print "down ", i }
n = 3
do for [i = 1:n*2:n] { print "expr bounds ", i }
s = ""
do for [w in "x y z"] { s = s . w . "-" }
print s
do for [w in "1 2.5 three"] { print w, " ", strlen(w) }
k = 0
while (k < 3) { k = k + 1; if (k == 2) { continue }; print "k ", k }
acc = 0
do for [i = 1:10] { if (i % 3 == 0) { acc = acc + i } else { acc = acc - 1 } }
print "acc ", acc
f(x) = x * 2
g(x) = f(x) + f(x + 1)
f(x) = x * 3
print g(1)
h(a, b) = a . b
print h("p", "q"), h("", "z")
cnt = 0
inc(x) = (cnt = cnt + x, cnt)
print inc(2), inc(3), cnt
print sum [i = 1:n] inc(1)
print "cnt ", cnt
x = 10
print (x = x + 1, x * 2), x
$db << EOD
1
EOD
print |$db| + |$db|
str = "abc"
print str[2:2] . str[1:1] . str[3:]
print strlen(str) * 2, str . str
