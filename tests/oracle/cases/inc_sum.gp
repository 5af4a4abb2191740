# helper for s06 (not a case): arithmetic on arguments
print "sum ", ARG1 + ARG2, " concat ", ARG1 . ARG2
