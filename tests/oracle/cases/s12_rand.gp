# rand(): seeded sequences are deterministic
# oracle: mpi
print rand(-1)
do for [i = 1:5] { print rand(0) }
print rand(42)
do for [i = 1:5] { print rand(0) }
print rand(42)
print rand(0), rand(0)
print rand(-1), rand(0)
print rand({3,7})
print rand(0), rand(0)
x = rand(12345)
s = 0.0
do for [i = 1:1000] { s = s + rand(0) }
print sprintf("%.12f", s)
print int(rand(7) * 1000), int(rand(0) * 1000)
