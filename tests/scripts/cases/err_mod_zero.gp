# integer modulo by zero is an undefined value
print 5 % 2
print 5 % 0
