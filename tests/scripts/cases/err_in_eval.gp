# an error inside an eval'd string
print "before"
eval "q = 1 + nosuch"
