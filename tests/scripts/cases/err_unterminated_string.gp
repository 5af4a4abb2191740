# a string with no closing quote (gnuplot 5.4 silently closes it; pvox refuses)
print "not printed"
name = "frame.png
print name
