# `for [i=a:*]` iterates only over plot elements with data (gnuplot 5.4 refuses it here)
print "before"
do for [i=1:*] {
    print i
}
