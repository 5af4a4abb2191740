# a string operand of an arithmetic operator
s = "abc"
print s . "def"
print s * 2
