# inline data '-' inside a { } block: gnuplot 5.4 reads it from standard input there (the
# lines after the command in the block are commands); pvox stops with an error
set table
print "before"
do for [i=1:2] {
    plot '-' using 1:2 with table
}
print "not reached"
