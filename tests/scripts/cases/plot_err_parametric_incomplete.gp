# `set parametric`: functions come in triples x, y, z (gnuplot 5.4's message)
set parametric
set output "f.png"
splot cos(u), sin(u), v, u, v
print "not reached"
