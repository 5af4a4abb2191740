# A data file that disappears between two commands: the second read is a located error, exit 3 on every rank (README "Data sources")
set print "gone.dat"
print "1 2"
print "3 4"
set print
stats "gone.dat" using 1 nooutput
print STATS_records
system "rm gone.dat"
stats "gone.dat" using 1 nooutput
print "not reached"
