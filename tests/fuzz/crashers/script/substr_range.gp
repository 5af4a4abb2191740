# substring bounds and builtin integer arguments that are NaN or past the int64 range were
# undefined casts (UBSan); they truncate as on x86-64 (INT64_MIN), the values pvox gave
print "hello"[NaN:], "hello"[1e30:], "hello"[-1e30:2], substr("hello", 1e300, NaN)
print weekdate_iso(1e300, 1, 1), weekdate_cdc(NaN, 2, 3), strstrt("hello", "l")[1e300:]
