# gprintf/sprintf of reals outside the integer range: the casts were undefined (UBSan);
# they now give the x86 result gnuplot shows
print gprintf("0x%x", 2**63), gprintf("%o", -1e300), gprintf("%T", 1e308 * 10)
print gprintf("%X", NaN), sprintf("%d", 1e300), sprintf("%x", -2**70)
