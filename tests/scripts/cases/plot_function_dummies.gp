# the dummies of function surfaces: `set dummy`, a splot range naming them for that
# command only (`splot [s=...]`), gnuplot's t, y after `set parametric` and u, v once a
# parametric splot ran, x, y after `unset parametric`; the dummies shadow variables of the
# same name while sampling and leave them as they were
x = 5
set output "f.png"
splot [a=-1:1] [b=0:2] a*b, x
show dummy
print x
set dummy p, q
splot p + q
show dummy
set parametric
show dummy
splot u, v, u*v
show dummy
unset parametric
show dummy
print x
