# an error in a file called from a loop: its output so far, then its file:line
do for [i = 1:3] {
    call "err_call_in_loop.inc" i
}
print "not reached"
