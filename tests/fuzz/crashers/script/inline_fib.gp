# vector compile of a doubly recursive function: inlining doubled the tree per level
# (2^64 nodes); recursion is now refused at once and the scalar VM runs it
fib(n) = n < 2 ? n : fib(n - 1) + fib(n - 2)
even(n) = n == 0 ? 1 : odd(n - 1)
odd(n) = n == 0 ? 0 : even(n - 1)
print fib(10), even(7)
