# helper for s17 (not a case): the ARGV array of call
print "ARGC=", ARGC, " |ARGV|=", |ARGV|
do for [i = 1:ARGC] { print "ARGV[", i, "]=", ARGV[i] }
