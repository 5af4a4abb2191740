# A syntax error anywhere stops the script before any command runs.
print "not printed: the whole script is checked first"
x = 1
	y = x +* 2
print "not printed either"
