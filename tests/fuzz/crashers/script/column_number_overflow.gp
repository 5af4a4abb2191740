# a column number past the integer range overflowed in the lexer (UBSan): now a located
# error, "column number too large"
plot "-" using 1:$44444444444444444444444
1 2
e
