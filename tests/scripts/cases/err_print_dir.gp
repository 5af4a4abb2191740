# set print to a file that cannot be created: an I/O error (exit code 3)
print "before"
set print "no_such_dir/out.txt"
print "not reached"
