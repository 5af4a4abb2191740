# Builtins and variables beyond the voxel dialect that gnuplot 5.4 scripts use: time
# formatting and parsing, week dates, airy, exist(), palette(z), system(), GPFUN_*,
# GPVAL_VERSION, nested `do for`, `undefine $*`.
# oracle: mpi
print strftime("%Y-%m-%d %H:%M:%S", 0), strftime("%a %A %b %B %j %y %s", 1e9)
print strftime("%H:%M:%.3S", 3723.25), strftime("%tH:%tM:%tS", 4000), strftime("%tM:%tS", 4000)
print strptime("%Y", "2000"), strptime("%d/%m/%Y %H:%M", "03/04/2001 10:20")
print weekdate_iso(2020, 1, 1), weekdate_iso(2021, 10, 3), weekdate_iso(2026, 53, 7)
print weekdate_cdc(2020, 1, 1), weekdate_cdc(2023, 5, 7), weekdate_cdc(2026, 1, 1)
print sprintf("%.9g %.9g %.9g %.9g", airy(0), airy(1), airy(-3), airy(2.5))
print sprintf("%.9g %.9g %.9g", airy(7), airy(-12), airy(-7.5))
print exist("nothing"), exists("pi"), exist("pi")
print palette(0), palette(0.5), palette(10), palette(-10)
set cbrange [0:1]
print palette(0), palette(0.25), palette(1)
set palette rgbformulae 33,13,10
print palette(0.25), palette(0.75)
set palette defined (0 "blue", 1 "white", 2 "red")
print palette(0.1), palette(0.5), palette(0.9)
print system("echo pvox; echo twice")
print strlen(system("printf 'a b'")), word(system("echo one two three"), 2)
l(x) = y0 + m*x
g(a, b) = a ** b
print GPFUN_l, " | ", GPFUN_g
print GPVAL_VERSION >= 5.4, GPVAL_PATCHLEVEL
array J[3] = [1, 2, 3]
Out = ""
do for [i=1:3] for [j=J[i]:3] { Out = Out . sprintf("%d-%d ", i, j) }
print Out
array A[2] = ["a b", "c"]
Out = ""
do for [i = 1:|A|] for [w in A[i]] { Out = Out . i . ":" . w . " " }
print Out
do for [i=1:2] for [k=i:i] for [j=1:k] { print i, k, j }
$one << EOD
1
EOD
$two << EOD
2
EOD
keep = 5
undefine $*
print exists("$one"), exists("$two"), keep
n = `echo 42`
print n + 1, "`echo inside double quotes`", '`not in single quotes`'
# a comment with `backquotes` is left alone
