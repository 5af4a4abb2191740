# a string with no closing quote ends with its line, as gnuplot 5.4 reads it
name = "frame.png
print name
print 'it''s
print "a", "b
