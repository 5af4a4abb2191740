# macros: @name substitutes a string variable's text
# oracle: mpi
v = "3 + 4"
print @v
print (@v) * 2
print @v * 2
cmd = 'print "hello from macro"'
@cmd
f = "sqrt"
print @f(16)
part = "1:2"
fmt = '"%5.2f"'
print sprintf(@fmt, pi)
load "inc_macro_def.gp"
@MAC_CMD
args = "1, 2, 3"
print @args
name = "xx"
@name = 5
print xx
expr = "$1 + $2"
print "macro text: ", expr
a = 2
m = "a * 10"
a = 3
print @m
twice = "print 'twice'; print 'again'"
@twice
