# tm_* of a time value past the integer range: the day count's cast was undefined
# (UBSan); gnuplot warns "time value out of range" there, pvox gives NaN
print tm_year(1e300), tm_mday(-1e20), tm_wday(NaN), tm_yday(1e13), tm_sec(-1e300)
