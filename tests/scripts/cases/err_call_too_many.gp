# call takes at most 9 arguments (found before the script runs)
print "not printed"
call "err_in_call.inc" 1 2 3 4 5 6 7 8 9 10
