# the memory check refuses a 512^3 grid (512 MiB) under --max-memory 1M (see .args) before
# allocating, on every rank, and says how many ranks are needed; exit status 3
print "before"
set vgrid $big size 512
print "not reached"
