# load of a file that does not exist: an I/O error (exit code 3)
print "before"
load "no_such_file.gp"
print "not reached"
