# a character that is not part of the language
print "not printed"
a = 1 $ 2
