# pvox --check skips inline data lines (never commands) and reports the errors after them
# at their own lines
plot '-' using 1:2, '-' using 1:2
1 2
print 1 +
e
this is data
e
print (1 +
vfill '-' using 1:2:3:(1):(1)
0 0 0
set nosuchoption
  e
set nosuchoption
