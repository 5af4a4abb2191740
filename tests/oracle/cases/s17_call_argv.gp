# call: the ARGV[] array (numbers stay numbers, strings stay strings)
# oracle: mpi
call "inc_argv.gp" 1 2.5 "str"
call "inc_argv.gp"
call "inc_argv.gp" "a b" 'c'
x = 7
call "inc_argv.gp" x x+1
