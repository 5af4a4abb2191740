# pause does nothing in a batch run (DEC-10)
pause 5
pause -1 "press return"
pause mouse
print "no wait"
