# a string given to a numeric sprintf format
print sprintf("%d", 1)
print sprintf("%d", "a")
