# a run-time error on the third pass of a loop: the loop's output comes first
do for [i = 1:5] {
    print "pass ", i
    if (i == 3) {
        x = i + missing
    }
}
