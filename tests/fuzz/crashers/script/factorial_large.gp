# factorial of a large integer multiplied n reals one by one (a hang for 6666666666666!);
# the product stops once it is infinite, the value gnuplot prints
print 171!, 6666666666666!, 9223372036854775807!
