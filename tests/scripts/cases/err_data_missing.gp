# a data file that does not exist: an I/O error (exit code 3)
set table $t
print "before"
plot "no_such_file.dat" using 1:2 with table
print "not reached"
