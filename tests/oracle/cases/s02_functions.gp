# user functions, recursion, late binding of globals
# oracle: mpi
sq(x) = x * x
print sq(3), sq(1.5), sq(-2)
add(a, b) = a + b
print add(1, 2), add(1, 2.5), add("a" . "b" eq "ab", 1)
fact(n) = n <= 1 ? 1 : n * fact(n - 1)
print fact(0), fact(1), fact(5), fact(20), fact(21)
fib(n) = n < 2 ? n : fib(n - 1) + fib(n - 2)
print fib(10), fib(15)
gcd(a, b) = b == 0 ? a : gcd(b, a % b)
print gcd(48, 18), gcd(17, 5)
k = 10
scale(x) = k * x
print scale(2)
k = 100
print scale(2)
x = 5
useparam(x) = x + 1
print useparam(1), x
f(x) = x + 1
f(x) = x + 2
print f(1)
greet(s) = "hello " . s
print greet("world"), strlen(greet(""))
pot(r) = r > 0 ? 1/r : 10**6
print pot(0), pot(2), pot(2.), pot(0.5), pot(4.0)
pot2(r) = r > 0 ? 1.0/r : 10**6
print pot2(2), pot2(3)
three(a, b, c) = a * 100 + b * 10 + c
print three(1, 2, 3)
comp(x) = sq(add(x, 1))
print comp(2)
cnt(n) = n > 0 ? 1 + cnt(n - 1) : 0
print cnt(100)
mix(x) = x > 1 ? "big" : x
print mix(0), mix(5)
even(n) = n == 0 ? 1 : odd(n - 1)
odd(n) = n == 0 ? 0 : even(n - 1)
print even(10), odd(7)
print exists("sq"), exists("nosuchfunction")
