# exit status outside 0..255 is a located error (DIFF-23): 256 would reach the shell as 0
print "before"
exit status 256
print "not reached"
