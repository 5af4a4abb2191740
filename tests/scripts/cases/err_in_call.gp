# an error in a called file is reported with that file's name and line
call "err_in_call.inc" 5
print "not reached"
