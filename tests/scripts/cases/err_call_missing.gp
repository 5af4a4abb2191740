# call of a file that does not exist: an I/O error (exit code 3)
print "before"
call "no_such_file.gp" 1 2
print "not reached"
