# pvox --check reports every syntax error and runs nothing
print "not printed"
set nosuchoption
plot $d with nosuchstyle
print (1 +
do for [i=1:2] { print i }
