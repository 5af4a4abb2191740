# call with arguments: ARGC, ARG0..ARG9, ARGV[]
# oracle: mpi
call "inc_args.gp" 1 2.5 "str"
call "inc_args.gp"
call "inc_args.gp" "a b" 'c'
x = 7
call "inc_args.gp" x x+1
call "inc_args.gp" sprintf("%d", x)
call "inc_nested.gp" "top"
print "after calls ARGC exists: ", exists("ARGC")
f = "inc_args.gp"
call f "via variable"
call "inc_sum.gp" 2 3
call "inc_sum.gp" "4" "0.5"
