# `fit` is read whole and not carried out (README "Commands"): the parameters keep their
# values, an undefined one starts at 1.0, `<name>_err` and the FIT_* results say no fit ran;
# `via "file"` loads the starting values. `update`, `test` and the interactive commands are
# read and ignored with one warning each per script.
$d << EOD
1 2.1 0.1
2 3.9 0.1
3 6.2 0.2
EOD
l(x) = y0 + m*x
y0 = 0.5
fit l(x) $d via y0, m
print y0, m, FIT_CONVERGED, FIT_NITER
print sprintf("%g %g", y0_err, m_err)
fit [x=0:5] [*:*] l(x) $d using 1:2:3 yerrors via m
fit l(x) $d using 1:2:3 zerror via y0,m
fit l(x) $d errors y via m
set print "start.par"
print "q = 2.5"
print "w = 3   # FIXED"
unset print
fit q*x + w $d via "start.par"
print q, w
update "fit.par"
update "fit.par" "new.par"
test
test palette
test terminal
refresh
bind "a" "print 1"
history 5
hist
raise
lower 1
toggle all
help set
save "all.gp"
system "echo from system"
print "went on"
