# --no-shell (README "Running"): system() is a located error, exit 1 on every rank, before the command runs
print "before"
x = 1 + strlen(system("echo should not run >&2"))
