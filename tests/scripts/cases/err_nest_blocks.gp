# { } blocks nest 2000 deep; one more is the located error "blocks nested too deeply"
# (each level takes C stack; finding a block's end is a look-up, so deep nests are fast)
ok = ""; bad = ""; close = ""
do for [i=1:2000] { ok = ok . "if (1) {\n"; close = close . "}\n" }
eval ok . "n = 2000\n" . close
print "2000 levels: ", n
eval ok . "if (1) { n = 2001 }\n" . close
print "not reached"
