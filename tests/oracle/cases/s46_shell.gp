# Shell features as gnuplot runs them (README "Scripting", "Data sources"): `!command`,
# `system "command"`, system(), their exit status in GPVAL_SYSTEM_ERRNO/ERRMSG and
# GPVAL_ERRNO, `set print "| command"`, "< command" data sources in plot with table,
# stats and load.
# oracle: mpi
!echo bang; echo second # the shell's comment
  !echo "joined" \
  line
print GPVAL_SYSTEM_ERRNO, " ", GPVAL_SYSTEM_ERRMSG
!exit 3
print GPVAL_SYSTEM_ERRNO, " ", GPVAL_SYSTEM_ERRMSG
system "echo via system; exit 5"
print GPVAL_SYSTEM_ERRNO, " ", GPVAL_SYSTEM_ERRMSG
x = system("printf 'a\\nb\\n'; exit 4")
print x, " ", GPVAL_ERRNO, " ", GPVAL_SYSTEM_ERRNO
!nosuchcommand_pvox 2>/dev/null
print GPVAL_SYSTEM_ERRNO, " ", GPVAL_SYSTEM_ERRMSG
set print "| sed 's/^/piped: /'"
print "one"
print "two"
set print
print "after the pipe"
set table $t
plot "< printf '1 2\\n2 4\\n\\n3 9\\n'" using 1:2 with table
plot "< printf '1 2\\n2 4\\n\\n\\n3 9\\n'" using 1:($2*2) index 1 with table
unset table
print $t
stats "< seq 1 10" using 1 nooutput
print STATS_records, " ", STATS_mean
stats "< printf '5 6\\n7 9\\n8 1\\n'; exit 3" using 1:2 nooutput
print STATS_records, " ", STATS_sum_y, " ", GPVAL_SYSTEM_ERRNO
load "< echo 'print \"loaded from a command\"'"
f(n) = sprintf("< seq 1 %d", n)
stats f(4) nooutput
print STATS_max
