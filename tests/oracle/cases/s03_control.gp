# do for / while / if / else / break / continue
# oracle: mpi
do for [i = 1:3] { print "i=", i }
do for [i = 0:10:5] { print "step5 ", i }
do for [i = 5:1:-2] { print "down ", i }
do for [i = 3:1] { print "never" }
n = 0
do for [j = 0:99] { n = n + 1 }
print "iterations ", n, " j exists after loop: ", exists("j")
j = 42
do for [j = 1:2] { print "inner j ", j }
print "outer j restored: ", j
do for [s in "alpha beta gamma"] { print "word ", s }
do for [s in ""] { print "no words" }
do for [i = 1:3] {
    do for [k = 1:3] {
        if (k == 2) { continue }
        if (i == 3) { break }
        print i, k
    }
}
m = 0
while (m < 5) { m = m + 1 }
print "while ", m
m = 10
while (m < 5) { print "never" }
m = 0
while (1) {
    m = m + 1
    if (m % 2 == 0) { continue }
    if (m > 7) { break }
    print "odd ", m
}
do for [v = 1:6] {
    if (v == 1) {
        print v, "one"
    } else {
        if (v <= 4) {
            print v, "two to four"
        } else {
            print v, "more"
        }
    }
}
if (0) { print "no" } else { print "else branch" }
if (1) { print "then branch" }
if ("a" eq "a") { print "string condition" }
x = 2.5
if (x > 2 && x < 3) { print "between" }
total = 0
do for [a = 1:4] { do for [b = a:4] { total = total + a * b } }
print "total ", total
do for [i = 1:3] { print i; i = 10; print i }
lim = 3
do for [i = 1:lim] { lim = 1; print "lim loop ", i }
do for [i = 1:2] { do for [t in "x y"] { print i, t } }
do for [i=1:3] { if (i == 2) { break } ; print "semi ", i }
