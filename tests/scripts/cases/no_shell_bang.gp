# --no-shell (README "Running"): `!command` is a located error, exit 1 on every rank
print "before"
!echo should not run >&2
