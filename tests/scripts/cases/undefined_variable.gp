# A run-time error stops the script at the command that failed, with its position.
# The commands before it have run: their output comes first.
charge = 1
r = 0.5
pot = charge / r
print "pot = ", pot

# potx is never defined (a typo for pot)


print "before the error"
a = 1 + potx
print "not reached"
