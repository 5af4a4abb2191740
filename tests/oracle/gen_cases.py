#!/usr/bin/env python3
"""Generate the expression groups of the gnuplot oracle suite (cases/e_*.gp).

Each group is a list of expressions; every expression becomes one line
    print "EXPR =>", EXPR
Candidates that gnuplot 5.4 rejects (error, undefined value) are dropped at generation
time, so the committed files contain only expressions gnuplot evaluates. Re-run after
editing the lists:
    python3 tests/oracle/gen_cases.py [--gnuplot gnuplot]
The output is deterministic (same gnuplot, same files). Handwritten script groups live in
cases/s_*.gp and are not touched.
"""
import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, "cases")

GROUPS = {}

GROUPS["int_arith"] = """
1+2
7-10
6*7
7/2
-7/2
7/-2
-7/-2
7%3
-7%3
7%-3
-7%-3
0/5
0%5
1+2*3
(1+2)*3
10-3-2
100/10/3
2*3%4
7%4*3
-(3)
+3
-(-3)
- -3
!0
!5
!-1
~0
~5
~-1
2147483647+1
2147483647*2
2147483648*2147483648
9223372036854775807
9223372036854775807+1
-9223372036854775807-1
-9223372036854775807-2
9223372036854775807*2
4611686018427387904*2
3037000499*3037000499
3037000500*3037000500
-(-9223372036854775807-1)
(-9223372036854775807-1)/-1
(-9223372036854775807-1)*-1
9223372036854775807-(-1)
-9223372036854775807 - 9223372036854775807
0x1F
0x7fffffffffffffff
0xff+1
017
010+1
1e3
1E3
5e-1
.5
5.
12345678901234567
123456789012345678
1234567890123456789
12345678901234567890
5!
0!
10!
20!
3!+1
10/3*3
10%3*3
-10/3
-10%3
1000000*1000000
-1000000*1000000*1000000
99999999999*99999999999
6/3
1/1
1-1
-0
"""

GROUPS["real_arith"] = """
1.5+2.25
0.1+0.2
0.1*3
1/3.
2./3
1./7
-1./7
1.0/3*3
7/2.
7./2
-7/2.
7/2*1.0
1.0*7/2
2.5*4
5.0/2
-5.0/2
3.0-3.0
-3.0+3.0
1e15+0.3
1e16+1
1e16+1.0
1e308*10
-1e308*10
1e308*10-1e308*10
(1e308*10)*0
1/(1e308*10)
1/(-1e308*10)
-0.0
0.0*-1
-1*0.0
0.0
0.0/1
1e-320
1e-300*1e-300
2.5e-310
5e-324
1.7976931348623157e308
1e-5*1e-5
1.5e300*1.5e10
7.5%2
7%2.5
2**0.5*2**0.5
(0.1+0.2)-0.3
100*1.1
1e10/3
-1e10/3
1e22/7
3.0*1e-100
1.0+1e-15
1.0+1e-16
1/0.1
0.1/3
1e100/1e-100
"""

GROUPS["power"] = """
2**10
2**0
0**0
0**1
2**-1
2**-2
2.**-2
(-2)**3
(-2)**-3
(-2)**2
10**6
10**15
10**16
10**18
10**19
10**20
2**62
2**63
2**64
-2**63
(-2)**63
(-2)**64
3**39
3**40
3**41
(-3)**39
(-3)**40
2.0**10
2**0.5
4**0.5
8**(1./3)
(-8)**(1./3)
(-1)**0.5
(-4)**0.5
1**1000000
(-1)**1000001
(-1)**1000000
2**3**2
(2**3)**2
-2**2
(-2)**2
10**-1
10**-2
0.5**2
1.5**1.5
1e10**30
1e10**31
10**-400
2**-1074
0.0**0
0**0.0
10**6^1
10**6^6
2^3
10^6
5^5
-1^1
0^0
7^-1
"""

GROUPS["bitwise"] = """
5&3
5|3
5^3
~5
~-1
~0
1<<4
1<<62
1<<63
-8>>1
-1>>1
256>>4
1<<0
8>>3
0xFF&0x0F
0xF0|0x0F
6&3|8
1|2^3
1^2&3
(1|2)^3
12^10^6
255&~15
-1&255
0x7fffffffffffffff&-1
(1<<31)*2
1<<32
3<<2+1
16>>1+1
1+2<<1
5&3==1
(5&3)==1
5|3==7
~5&7
"""

GROUPS["compare"] = """
1<2
2<1
1<=1
1<=0
1>=2
2>=2
2>1
1>2
1==1
1==2
1==1.0
1!=1.0
1!=2
0.1+0.2==0.3
0.5+0.25==0.75
1<2<3
3>2>1
3<2<1
1<2==1
-0.0==0.0
2>1.5
1.5<2
9223372036854775807==9223372036854775807
9223372036854775807==9223372036854775806
9223372036854775807.0==9223372036854775806
NaN==NaN
NaN!=NaN
NaN<1
NaN>1
1e308*10>1e308
-1e308*10<-1e308
"a" eq "a"
"a" eq "b"
"a" ne "b"
"a" ne "a"
"abc" eq "abc"
"abc" eq "ABC"
"" eq ""
"a"."b" eq "ab"
"ab" eq "a"."b"
("a" eq "a") + 1
1==1 && 2==2
1<2 || 2<1
!(1<2)
(1<2)*5
"10" eq "10.0"
"a" == "a"
"a" != "b"
"abc" == "abd"
"""

GROUPS["logical"] = """
1&&1
1&&0
0&&1
0||0
0||3
3||0
3&&4
!(1&&0)
!!5
!!0
1&&0||1
1||0&&0
0&&0||1
(1||0)&&0
0 && (1/0)
1 || (1/0)
0 && nosuchvar
1 || nosuchvar
0 && nosuchfunc(1)
2.5&&1
0.0||0
-1&&-1
1e-300&&1
NaN&&1
"""

GROUPS["ternary"] = """
1?2:3
0?2:3
1?2:3+10
(1?2:3)+10
(0?2:3)+10
1?0?4:5:6
1?1?4:5:6
0?4:1?5:6
0?4:0?5:6
2 ? 3 : 4 ? 5 : 6
1>0?"yes":"no"
1<0?"yes":"no"
0 ? 1/0 : 7
1 ? 7 : 1/0
0.5 ? 1 : 2
0.0 ? 1 : 2
(1 ? 2 : 3) * (0 ? 4 : 5)
1 ? 2 : 3, 4
-1 ? "neg" : "zero"
1 ? 2.5 : 3
1 ? 2 : 3.5
1+1 ? 3 : 4
1 || 0 ? 5 : 6
0 && 1 ? 5 : 6
(a1 = 0) ? 5 : 6
"""

GROUPS["strings"] = """
"a"."b"
"abc".""
"".""
"x"."y"."z"
'single'."double"
"tab\\there"
'no\\tescape'
"quote\\"in"
'it''s'
"back\\\\slash"
"new\\nline"
"abcdef"[2:3]
"abcdef"[2:]
"abcdef"[:3]
"abcdef"[3:3]
"abcdef"[4:2]
"abcdef"[5:10]
"abcdef"[0:2]
"abcdef"[7:9]
("ab"."cd")[2:3]
strlen("hello")
strlen("")
strlen("tab\\t")
strlen('tab\\t')
strlen("a"."bc")
substr("hello",2,4)
substr("hello",1,1)
substr("hello",0,2)
substr("hello",4,100)
substr("hello",3,2)
substr("hello",-1,2)
strstrt("hello","ll")
strstrt("hello","z")
strstrt("hello","h")
strstrt("hello","")
strstrt("","a")
words("a b  c")
words("")
words("  lead trail  ")
words("one")
words("tab\\tsep")
word("a b c",2)
word("a b c",5)
word("a b c",0)
word("  x  y  ",2)
word("a b c",-1)
"A" eq "A"
"abc" ne "abd"
"a".sprintf("%d",3)
"x".gprintf("%02g",7)
"frame".gprintf("%03g",42).".png"
sprintf("%s-%s","a","b")
"abc" . 12
12 . "abc"
"3" + 4
"3.5" * 2
"10" / 4
"1e2" + 0
strlen(sprintf("%10s",""))
"ab" . "" eq "ab"
"a;b"
"a#b"
'a#b'
"x" . 'y' . "z"
"""

GROUPS["print_format"] = """
0
1
-1
1.0
-1.0
0.5
-0.5
1e-5
-1e-5
1e-4
1.5e-5
0.0001234
0.001
1e15
-1e15
1e16
-1e16
1e17
1.0e15
1.0e14
123456789012345.6
1234567890123456.7
12345678901234.56
123456789012345678
-123456789012345678
123456789012345678.0
-0.0
0.0
1e308*10
-1e308*10
NaN
-NaN
NaN*0
pi
-pi
2*pi
pi*1e10
pi*1e-10
100.0
1e5
1e6
1.5e6
1e20
1e21
1e100
1e-100
1.0/7
1e-10
1e-300
5e-324
1.7976931348623157e308
33.0/8
0.1
99999999999999.9
999999999999999.9
9999999999999999.0
0.30000000000000004
2.0/3
1.0e0
3.14159265358979323846
1.23456789012345678
12.5
-12.5
1000.0/3
{1,2}
{0,-1}
{1.5,0}
{0,0}
{-1,-2}
{1e20,1e-20}
sqrt(-4)
-{1,2}
{1,2}*{3,4}
{1,2}+1
{1,2}/{3,4}
abs({3,4})
{1,2}**2
"text"
""
"%d"
"""

GROUPS["math"] = """
sin(0)
sin(pi/2)
sin(1)
sin(-1.5)
cos(0)
cos(pi)
cos(1)
tan(pi/4)
tan(1)
asin(1)
asin(0.5)
acos(0)
acos(-1)
acos(0.5)
atan(1)
atan(-1e10)
atan2(1,1)
atan2(-1,-1)
atan2(0,-1)
atan2(1,0)
atan2(0,0)
sinh(1)
cosh(1)
tanh(1)
tanh(100)
asinh(1)
acosh(2)
atanh(0.5)
exp(1)
exp(0)
exp(-1)
exp(100)
exp(-800)
log(10)
log(1)
log(2.718281828459045)
log(-1)
log10(1000)
log10(2)
log10(1e-7)
sqrt(2)
sqrt(16)
sqrt(0)
sqrt(-1)
sqrt(1e300)
abs(-3)
abs(3)
abs(-3.5)
abs(-9223372036854775807)
abs(-0.0)
abs({3,4})
sgn(-2)
sgn(0)
sgn(3.5)
sgn(-0.5)
floor(2.7)
floor(-2.7)
floor(3)
floor(-0.5)
ceil(2.1)
ceil(-2.1)
ceil(3)
ceil(-0.5)
int(2.9)
int(-2.9)
int(7)
int(0.5)
int(1e10)
int(-1e15)
real(3)
real(3)/2
real({1,2})
imag({1,2})
imag(3)
arg({0,1})
arg(-1)
arg({1,1})
sin({1,1})
exp({0,1})
sqrt({0,2})
log({0,1})
2*pi
pi/2
sin(pi)
cos(pi/2)
floor(1e10+0.5)
ceil(1e10+0.5)
sin(1e10)
exp(710)
exp(709)
"""

GROUPS["math_special"] = """
gamma(5)
gamma(0.5)
lgamma(10)
lgamma(0.5)
erf(0.5)
erf(0)
erfc(0.5)
inverf(0.5)
norm(0)
norm(1.96)
invnorm(0.975)
invnorm(0.5)
besj0(1)
besj1(1)
besy0(1)
besy1(1)
ibeta(1,2,0.5)
igamma(1,2)
lambertw(1)
voigt(0,1)
EllipticK(0.5)
EllipticE(0.5)
"""

GROUPS["sprintf"] = """
sprintf("%d", 42)
sprintf("%5d|", 42)
sprintf("%-5d|", 42)
sprintf("%05d", 42)
sprintf("%+d", 42)
sprintf("% d", 42)
sprintf("%d", -42)
sprintf("%i", 7)
sprintf("%ld", 123456789012)
sprintf("%d", 2**40)
sprintf("%d", 3.7)
sprintf("%d", -3.7)
sprintf("%d", -7/2)
sprintf("%x", 255)
sprintf("%X", 255)
sprintf("%#x", 255)
sprintf("%08x", 48879)
sprintf("%x", -1)
sprintf("%o", 8)
sprintf("%#o", 8)
sprintf("%e", 12345.678)
sprintf("%E", 12345.678)
sprintf("%.2e", 12345.678)
sprintf("%e", 0)
sprintf("%f", pi)
sprintf("%f", 3)
sprintf("%.0f", 2.5)
sprintf("%.0f", 3.5)
sprintf("%.3f", -1.0005)
sprintf("%10.4f|", pi)
sprintf("%-10.4f|", pi)
sprintf("%+.2f", 1.5)
sprintf("%g", 1e-5)
sprintf("%g", 0.0001)
sprintf("%g", 123456789)
sprintf("%g", 123456)
sprintf("%g", 100000)
sprintf("%g", 1000000)
sprintf("%g", 1e15)
sprintf("%g", 1e16)
sprintf("%G", 1e-10)
sprintf("%.3g", pi)
sprintf("%.10g", 1/3.)
sprintf("%#g", 1)
sprintf("%g", -0.0)
sprintf("%g", 1e308*10)
sprintf("%g", -1e308*10)
sprintf("%g", NaN)
sprintf("%f", NaN)
sprintf("%e", 1e308*10)
sprintf("%s", "str")
sprintf("%10s|", "str")
sprintf("%-10s|", "str")
sprintf("%.2s", "string")
sprintf("%%")
sprintf("100%%")
sprintf("%5.1f%%", 12.345)
sprintf("%d %s %f", 1, "two", 3)
sprintf("%s=%g", "x", 0.5)
sprintf("no format")
sprintf("")
sprintf("%d", 9223372036854775807)
sprintf("%.15g", 0.1)
sprintf("%.17g", 0.1)
sprintf("%a", 1)
sprintf("%c", 65)
sprintf("%s", 3)
sprintf("%s", 3.5)
sprintf("%d", "3")
sprintf("%*d", 5, 3)
sprintf("[%6.2e]", -0.000123)
sprintf("%5s%5s", "a", "b")
sprintf("%02d:%02d", 5, 7)
sprintf("%.3d", 5)
sprintf("%u", 5)
"""

GROUPS["gprintf"] = """
gprintf("%g", 1e6)
gprintf("%g", 123456)
gprintf("%g", 0.5)
gprintf("%02g", 0)
gprintf("%02g", 7)
gprintf("%02g", 10)
gprintf("%02g", 100)
gprintf("%02g", 2.5)
gprintf("%03g", 5)
gprintf("%.2f", pi)
gprintf("%5.1f|", 2.25)
gprintf("%e", 12345)
gprintf("%.3e", 0.000123)
gprintf("%t", 12345)
gprintf("%T", 12345)
gprintf("%.2t", 12345)
gprintf("%t*10^%T", 0.00345)
gprintf("%s", 12345)
gprintf("%c", 12345)
gprintf("%s%c", 0.0025)
gprintf("%.1s%c", 4.7e6)
gprintf("%b", 1024)
gprintf("%B", 1024)
gprintf("%b%B", 3000)
gprintf("%P", pi)
gprintf("%P", pi/2)
gprintf("%x", 255)
gprintf("%X", 255)
gprintf("%o", 8)
gprintf("%d", 42)
gprintf("%d", 42.7)
gprintf("%h", 1e6)
gprintf("%h", 12)
gprintf("value %g units", 3)
gprintf("%%", 1)
gprintf("%g", -0.0)
gprintf("%g", 1e308*10)
gprintf("%.0f", 0.5)
gprintf("%.0f", 1.5)
gprintf("%g", 1e-5)
gprintf("%5g|", 1)
gprintf("%-5g|", 1)
gprintf("%+g", 1)
gprintf("% g", 1)
gprintf("%#g", 1)
gprintf("%G", 1e-7)
gprintf("%E", 1e-7)
gprintf("%g", 99)
gprintf("%02g", 99)
gprintf("%02g", -3)
"""

GROUPS["conversions"] = """
real(3)
real(-3)
real(3)/2
real(7)/real(2)
int(3.99)
int(-3.99)
int(0.999999)
int(1e18)
int(-0.0)
int(9.3e18)
floor(-0.5)
floor(0.5)
floor(-0.0)
ceil(-0.5)
ceil(0.5)
ceil(-0.0)
floor(1e15+0.5)
ceil(1e15+0.5)
floor(-1e15-0.5)
int(1e15+0.5)
floor(9.3e18)
3+0.0
3*1.0
int(3)/int(2)
int(7.0)/2
floor(7.9)/2
ceil(6.1)/2
real(1)/3
int(2**62)
int(2.0**62)
int(2.0**63)
floor(2.0**53+1)
int("12")
real("3.5")
int("0x10")
real(" 2 ")
abs(int(-5.5))
int(real(5))
floor(5)/2
1.0*int(3.5)
"""

GROUPS["sum"] = """
sum [i=1:10] i
sum [i=1:10] i**2
sum [i=1:10] 1.0/i
sum [i=1:0] i
sum [i=5:5] i
sum [i=-3:3] i
sum [i=1:4] sum [j=1:i] j
sum [i=1:3] 2
sum [i=1:100] (i%2 ? i : 0)
sum [i=0:10] 0.1
sum [k=1:20] k!
sum [i=1:3] "1"
(sum [i=1:3] i) * 2
sum [i=1:3] i * 2
sum [i=1:3] i + 1
"""

GROUPS["precedence"] = """
2+3*4**2
(2+3)*4**2
-2**2
-2**-2
2**-2**2
!0+1
!(0+1)
~1+1
~(1+1)
-~1
~-1
!-0.0
1<2==2>1
1+2.0*3
7/2*2.0
7/(2*2.0)
7%4%3
2*3**2%5
1-2-3
1-(2-3)
2**2**3
-3%2
3-2 > 0 ? 10 : 20
1 ? 2 : 3 ? 4 : 5
1 < 2 && 3 < 4 || 0
1 & 3 == 3
1 | 2 & 3
1 + 1 << 2
32 >> 1 + 1
"a" . "b" eq "ab" ? "y" : "n"
1 == 1 == 1
2 == 2 == 2
(1, 2)
(1, 2) + 3
((1))
-(-(-1))
+-+1
1e400
-1e400
1e-400
0x10 * 1.5
1.5e+3 + 1.5E-3
1.0e-0
00
007
0.
"""

# Groups that also run under mpiexec -n 2 (tests.cmake looks for the tag line).
MPI_GROUPS = {"int_arith", "strings", "print_format", "sprintf"}

HEADER = "# GENERATED by tests/oracle/gen_cases.py (group %s): edit the generator, not this file\n"


def gp_dquote(s):
    """Quote s as a gnuplot double-quoted string."""
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def accepted(gnuplot, expr):
    """True if gnuplot prints `expr` without any error."""
    script = "print %s\n" % expr
    try:
        r = subprocess.run([gnuplot], input=script, capture_output=True, text=True,
                           timeout=10)
    except subprocess.TimeoutExpired:
        return False
    err = r.stderr
    return r.returncode == 0 and "line 1:" not in err and "warning" not in err.lower()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gnuplot", default="gnuplot")
    args = ap.parse_args()
    os.makedirs(CASES, exist_ok=True)
    total = 0
    for idx, (name, text) in enumerate(GROUPS.items(), start=1):
        exprs = [l for l in text.strip("\n").split("\n") if l.strip()]
        kept, dropped = [], []
        for e in exprs:
            (kept if accepted(args.gnuplot, e) else dropped).append(e)
        path = os.path.join(CASES, "e%02d_%s.gp" % (idx, name))
        with open(path, "w") as f:
            f.write(HEADER % name)
            if name in MPI_GROUPS:
                f.write("# oracle: mpi\n")
            for e in kept:
                f.write("print %s, %s\n" % (gp_dquote(e + " =>"), e))
        total += len(kept)
        print("%-14s kept %3d  dropped %2d: %s" % (name, len(kept), len(dropped),
                                                  " | ".join(dropped)), file=sys.stderr)
    print("total expressions: %d" % total, file=sys.stderr)


if __name__ == "__main__":
    main()
