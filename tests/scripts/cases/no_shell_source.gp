# --no-shell (README "Running"): a "< command" data source is a located error, exit 1 on every rank (also in plot, which skips only files it cannot open)
print "before"
set table $t
plot "< echo 1 2 >&2" with table
