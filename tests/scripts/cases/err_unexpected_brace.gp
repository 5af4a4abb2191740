# a '}' with no block to close
print "not printed"
x = 1
}
