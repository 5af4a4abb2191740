# vector compile of a recursive function whose arguments repeat its parameters: each of the
# 64 inlined levels doubled the arguments (2^64 nodes, out of memory); recursion is now
# refused at once (vvm_compile.c) and the scalar VM runs it
gcd(a, b) = b == 0 ? a : gcd(b, a % b)
fib(n) = n < 2 ? n : fib(n - 1) + fib(n - 2)
even(n) = n == 0 ? 1 : odd(n - 1)
odd(n) = n == 0 ? 0 : even(n - 1)
print gcd(48, 18), fib(10), even(7)
