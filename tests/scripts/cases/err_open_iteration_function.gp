# an open iteration over a function is refused, as in gnuplot 5.4
set output "f.png"
print "before"
splot for [i=1:*] i*x*y
print "not reached"
