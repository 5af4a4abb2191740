# Shell commands as gnuplot runs them (README "Scripting", DIFF-19): `!command` takes the rest of its line (a `#` or `;` is the shell's, continuation lines are joined), `system "command"` and system() set GPVAL_SYSTEM_ERRNO / GPVAL_SYSTEM_ERRMSG (system() also GPVAL_ERRNO) from the exit status; rank 0 runs each command once; `set print "| command"` pipes the printed lines into a command
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
eval "!echo from eval"
