# unbalanced parenthesis: '(' never closed (syntax: nothing runs)
print "not printed"
print (1 + 2 * (3 - 4)
