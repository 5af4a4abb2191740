# call: the ARGV[] array (numbers stay numbers, strings stay strings)
# oracle: mpi
call "inc_argv.gp" 1 2.5 "str"
call "inc_argv.gp"
call "inc_argv.gp" "a b" 'c'
x = 7
call "inc_argv.gp" x x+1
# gnuplot's argument rules: a string variable stops before a binary +/- (s -2 gives
# "hi", "-", 2.0), unknown names are text, numeric variables start an expression
s = "hi"
y = 2.5
call "inc_argv.gp" s -2 abc y*2 s."x" 010 0x10 (x/2.)
print ARGC, |ARGV|
