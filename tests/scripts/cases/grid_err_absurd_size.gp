# an absurd grid size is refused before allocating, on every rank, and the message keeps
# its unit however large the size (it was cut off mid-number)
set vgrid $v size 100000000000000000
print "not reached"
