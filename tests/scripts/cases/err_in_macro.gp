# an error in text substituted by a macro
m = "1 + nosuch"
print "before"
print @m
