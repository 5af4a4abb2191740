# `set noX` is `unset X` only where X is an option name: `nox` names none
set nokey
set nox
print "not reached"
