# helper for s05 (not a case)
MAC_CMD = 'print "from a macro command"'
