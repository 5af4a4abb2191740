/*
 * Special functions behind the math builtins (textbook algorithms, pure functions of
 * doubles): modified Bessel I0/I1, exponential integral, incomplete gamma and beta, normal
 * quantiles, inverse error function, Lambert W, complete elliptic integrals, Voigt profile.
 */
#include "builtins_int.h"

#include <math.h>

/* Modified Bessel functions I0, I1 by their power series (terms shrink fast enough for
 * any argument whose result is finite). */
double pv_sf_bes_i(double x, int order)
{
    double h = 0.5 * x, term = order ? h : 1.0, sum = term;
    for (int k = 1; k < 1000; k++) {
        term *= h * h / ((double)k * (double)(k + order));
        sum += term;
        if (term < sum * 1e-17) break;
    }
    return sum;
}

/* Exponential integral E_n(x): continued fraction above 1, series below. */
double pv_sf_expint_n(int n, double x)
{
    if (n < 0 || x < 0.0 || (x == 0.0 && n <= 1)) return NAN;
    if (n == 0) return exp(-x) / x;
    if (x == 0.0) return 1.0 / (n - 1);
    if (x > 1.0) {
        double b = x + n, c = 1.0 / 1e-300, d = 1.0 / b, h = d;
        for (int i = 1; i < 1000; i++) {
            double an = -(double)i * (n - 1 + i);
            b += 2.0;
            d = 1.0 / (an * d + b);
            c = b + an / c;
            double del = c * d;
            h *= del;
            if (fabs(del - 1.0) < 1e-17) break;
        }
        return h * exp(-x);
    }
    double ans = n - 1 ? 1.0 / (n - 1) : -log(x) - 0.5772156649015328606, fact = 1.0;
    for (int i = 1; i < 1000; i++) {
        fact *= -x / i;
        double del;
        if (i != n - 1) {
            del = -fact / (i - n + 1);
        } else {
            double psi = -0.5772156649015328606;
            for (int ii = 1; ii <= n - 1; ii++) psi += 1.0 / ii;
            del = fact * (-log(x) + psi);
        }
        ans += del;
        if (fabs(del) < fabs(ans) * 1e-17) break;
    }
    return ans;
}

/* Regularized lower incomplete gamma P(a, x): series below a+1, Lentz's continued fraction
 * for Q above. NaN outside a > 0, x >= 0. */
double pv_sf_igamma_p(double a, double x)
{
    if (!(a > 0.0) || !(x >= 0.0)) return NAN;
    if (x == 0.0) return 0.0;
    double lg = lgamma(a);
    if (x < a + 1.0) {
        double ap = a, sum = 1.0 / a, del = sum;
        for (int n = 0; n < 1000; n++) {
            ap += 1.0;
            del *= x / ap;
            sum += del;
            if (fabs(del) < fabs(sum) * 1e-17) break;
        }
        return sum * exp(-x + a * log(x) - lg);
    }
    double b = x + 1.0 - a, c = 1.0 / 1e-300, d = 1.0 / b, h = d;
    for (int i = 1; i < 1000; i++) {
        double an = -i * (i - a);
        b += 2.0;
        d = an * d + b;
        if (fabs(d) < 1e-300) d = 1e-300;
        c = b + an / c;
        if (fabs(c) < 1e-300) c = 1e-300;
        d = 1.0 / d;
        double del = d * c;
        h *= del;
        if (fabs(del - 1.0) < 1e-17) break;
    }
    return 1.0 - exp(-x + a * log(x) - lg) * h;
}

/* Normal quantile: Cephes ndtri (S. L. Moshier, Cephes Math Library 2.8), the method
 * gnuplot uses: a rational function in (p-0.5)^2 in the centre, in 1/sqrt(-2 log p) in
 * the tails; published coefficients, highest degree first. */
static double horner(const double *c, int n, double x)
{
    double v = c[0];
    for (int i = 1; i <= n; i++) v = v * x + c[i];
    return v;
}

static double horner1(const double *c, int n, double x) /* leading coefficient 1 */
{
    double v = x + c[0];
    for (int i = 1; i < n; i++) v = v * x + c[i];
    return v;
}

double pv_sf_ndtri(double p)
{
    static const double P0[5] = {-5.99633501014107895267E1, 9.80010754185999661536E1,
        -5.66762857469070293439E1, 1.39312609387279679503E1, -1.23916583867381258016E0};
    static const double Q0[8] = {1.95448858338141759834E0, 4.67627912898881538453E0,
        8.63602421390890590575E1, -2.25462687854119370527E2, 2.00260212380060660359E2,
        -8.20372256168333339912E1, 1.59056225126211695515E1, -1.18331621121330003142E0};
    static const double P1[9] = {4.05544892305962419923E0, 3.15251094599893866154E1,
        5.71628192246421288162E1, 4.40805073893200834700E1, 1.46849561928858024014E1,
        2.18663306850790267539E0, -1.40256079171354495875E-1, -3.50424626827848203418E-2,
        -8.57456785154685413611E-4};
    static const double Q1[8] = {1.57799883256466749731E1, 4.53907635128879210584E1,
        4.13172038254672030440E1, 1.50425385692907503408E1, 2.50464946208309415979E0,
        -1.42182922854787788574E-1, -3.80806407691578277194E-2, -9.33259480895457427372E-4};
    static const double P2[9] = {3.23774891776946035970E0, 6.91522889068984211695E0,
        3.93881025292474443415E0, 1.33303460815807542389E0, 2.01485389549179081538E-1,
        1.23716634817820021358E-2, 3.01581553508235416007E-4, 2.65806974686737550832E-6,
        6.23974539184983293730E-9};
    static const double Q2[8] = {6.02427039364742014255E0, 3.67983563856160859403E0,
        1.37702099489081330271E0, 2.16236993594496635890E-1, 1.34204006088543189037E-2,
        3.28014464682127739104E-4, 2.89247864745380683936E-6, 6.79019408009981274425E-9};
    const double em2 = 0.13533528323661269189; /* exp(-2) */
    bool lower = true;
    double y = p;
    if (y > 1.0 - em2) {
        y = 1.0 - y;
        lower = false;
    }
    if (y > em2) {
        y -= 0.5;
        double y2 = y * y;
        return (y + y * (y2 * horner(P0, 4, y2) / horner1(Q0, 8, y2))) * 2.50662827463100050242;
    }
    double x = sqrt(-2.0 * log(y)), x0 = x - log(x) / x, z = 1.0 / x;
    double x1 = x < 8.0 ? z * horner(P1, 8, z) / horner1(Q1, 8, z)
                        : z * horner(P2, 8, z) / horner1(Q2, 8, z);
    x = x0 - x1;
    return lower ? -x : x;
}

/* Regularized incomplete beta I_x(a, b) by the continued fraction of Abramowitz and
 * Stegun 26.5.8 evaluated with even/odd recurrences (the method of gnuplot's ibeta),
 * converged to single-precision epsilon; NaN when it does not converge. */
static double ibeta_cf(double a, double b, double x)
{
    const double eps = 1.1920928955078125e-07; /* FLT_EPSILON */
    double apb = a + b, alo = 0.0, blo = 1.0, bhi = 1.0;
    double ahi = exp(lgamma(apb) + a * log(x) + b * log(1.0 - x) - lgamma(a + 1.0) - lgamma(b));
    double f = ahi;
    for (int i = 0, j = 1; i <= 200; i++, j++) {
        double d = a + j + i;
        double aev = -(a + i) * (apb + i) * x / d / (d - 1.0);
        double aod = j * (b - j) * x / d / (d + 1.0);
        alo = ahi + aev * alo;
        blo = bhi + aev * blo;
        ahi = alo + aod * ahi;
        bhi = blo + aod * bhi;
        if (fabs(bhi) < eps) bhi = 0.0;
        if (bhi != 0.0) {
            double old = f;
            f = ahi / bhi;
            if (fabs(f - old) < fabs(f) * eps) return f;
        }
    }
    return NAN;
}

double pv_sf_ibeta_i(double a, double b, double x)
{
    if (!(a > 0.0) || !(b > 0.0) || !(x >= 0.0 && x <= 1.0)) return NAN;
    if (x == 0.0 || x == 1.0) return x;
    if (a < x * (a + b)) return 1.0 - ibeta_cf(b, a, 1.0 - x);
    return ibeta_cf(a, b, x);
}

/* Principal branch of Lambert's W by Halley's iteration. */
double pv_sf_lambert_w(double x)
{
    if (x < -1.0 / exp(1.0)) return NAN;
    if (x == 0.0) return 0.0;
    double w = x < 1.0 ? (x > -0.3 ? x * (1.0 - x) : -1.0 + sqrt(2.0 * (1.0 + exp(1.0) * x)))
                       : log(x) - log(log(x) + 1.0);
    for (int i = 0; i < 100; i++) {
        double e = exp(w), f = w * e - x;
        double dw = f / (e * (w + 1.0) - (w + 2.0) * f / (2.0 * w + 2.0));
        w -= dw;
        if (fabs(dw) <= 1e-16 * (1.0 + fabs(w))) break;
    }
    return w;
}

/* Complete elliptic integrals of modulus k by the arithmetic-geometric mean. */
double pv_sf_ellip(double k, bool second)
{
    if (!(fabs(k) < 1.0)) return NAN;
    double a = 1.0, g = sqrt(1.0 - k * k), c = fabs(k), sum = 0.5 * c * c, pw = 0.5;
    for (int i = 0; i < 60 && fabs(c) > 1e-17; i++) {
        double an = 0.5 * (a + g);
        c = 0.5 * (a - g);
        g = sqrt(a * g);
        a = an;
        pw *= 2.0;
        sum += pw * c * c;
    }
    double K = PV_PI / (2.0 * a);
    return second ? K * (1.0 - sum) : K;
}

/* Voigt profile K(x, y): Humlicek's W4 rational approximations (JQSRT 27, 1982) in the
 * regions used by Wells' driver (JQSRT 62, 1999), Humlicek's CPF12 near the core; relative
 * error below 1e-4, evaluated in the published operation order so the digits agree with
 * gnuplot's built-in fallback. */
double pv_sf_voigt_k(double x, double y)
{
    static const double cc[6] = {1.0117281, -0.75197147, 0.012557727, 0.010022008,
                                 -2.4206814e-4, 5.0084806e-7};
    static const double ss[6] = {1.393237, 0.23115241, -0.15535147, 0.0062183662,
                                 9.1908299e-5, -6.2752596e-7};
    static const double tt[6] = {0.31424038, 0.94778839, 1.5976826, 2.2795071, 3.020637,
                                 3.8897249};
    const double rrtpi = 0.56418958; /* 1/sqrt(pi) to the published precision */
    double y2 = y * y, ax = fabs(x), x2 = ax * ax;
    if (y >= 70.55) return y * rrtpi / (x2 + y2);
    double lim0 = sqrt(y * (40. - y * 3.6) + 15100.);
    double lim1 = y >= 8.425 ? 0. : sqrt(164. - y * (y * 1.8 + 4.3));
    double lim2 = 6.8 - y, lim3 = y * 2.4, lim4 = y * 18.1 + 1.65;
    if (y <= 1e-6) lim1 = lim2 = lim0;
    if (ax >= lim0) return y * rrtpi / (x2 + y2);
    if (ax >= lim1) {
        double a0 = y2 + 0.5, d0 = a0 * a0, d2 = y2 + y2 - 1.;
        return rrtpi / (d0 + x2 * (d2 + x2)) * y * (a0 + x2);
    }
    if (ax > lim2) {
        double h0 = y2 * (y2 * (y2 * (y2 + 6.) + 10.5) + 4.5) + 0.5625;
        double h2 = y2 * (y2 * (y2 * 4. + 6.) + 9.) - 4.5;
        double h4 = 10.5 - y2 * (6. - y2 * 6.);
        double h6 = y2 * 4. - 6.;
        double e0 = y2 * (y2 * (y2 + 5.5) + 8.25) + 1.875;
        double e2 = y2 * (y2 * 3. + 1.) + 5.25;
        double e4 = h6 * 0.75;
        return rrtpi / (h0 + x2 * (h2 + x2 * (h4 + x2 * (h6 + x2)))) * y *
               (e0 + x2 * (e2 + x2 * (e4 + x2)));
    }
    if (ax < lim3) {
        static const double zc[5][11] = {
            {1., 13.3988, 88.26741, 369.1989, 1074.409, 2256.981, 3447.629, 3764.966, 2802.87,
             1280.829, 272.1014},
            {5., 53.59518, 266.2987, 793.4273, 1549.675, 2037.31, 1758.336, 902.3066, 211.678},
            {10., 80.39278, 269.2916, 479.2576, 497.3014, 308.1852, 78.86585},
            {10., 53.59518, 92.75679, 55.02933, 22.03523},
            {5., 13.3988, 1.49646}};
        static const double pc[5][10] = {
            {0.3183291, 4.264678, 27.93941, 115.3772, 328.2151, 662.8097, 946.897, 919.4955,
             549.3954, 153.5168},
            {1.2733163, 12.79458, 56.81652, 139.4665, 189.773, 124.5975, -1.322256, -34.16955},
            {1.9099744, 12.79568, 29.81482, 24.01655, 10.46332, 2.584042},
            {1.273316, 4.266322, 0.9377051, -0.07272979},
            {0.3183291, 5.480304e-4}};
        static const int zn[5] = {11, 9, 7, 5, 3}, pn[5] = {10, 8, 6, 4, 2};
        double z[5], p[5];
        for (int k = 0; k < 5; k++) { /* Horner: c0*y^n + ... written as y*(y*(c0)+c1)... */
            double v = k == 0 ? y + zc[0][1] : y * zc[k][0] + zc[k][1];
            for (int i = 2; i < zn[k]; i++) v = y * v + zc[k][i];
            z[k] = v;
            double w = y * pc[k][0] + pc[k][1];
            for (int i = 2; i < pn[k]; i++) w = y * w + pc[k][i];
            p[k] = w;
        }
        return 1.7724538 / (z[0] + x2 * (z[1] + x2 * (z[2] + x2 * (z[3] + x2 * (z[4] + x2))))) *
               (p[0] + x2 * (p[1] + x2 * (p[2] + x2 * (p[3] + x2 * p[4]))));
    }
    double yb = y + 1.5, yb2 = yb * yb, k = 0.;
    double mq[6], mf[6], xm[6], ym[6], pq[6], pf[6], xp[6], yp[6];
    for (int j = 0; j < 6; j++) {
        double d = x - tt[j];
        mq[j] = d * d;
        mf[j] = 1. / (mq[j] + yb2);
        xm[j] = mf[j] * d;
        ym[j] = mf[j] * yb;
        d = x + tt[j];
        pq[j] = d * d;
        pf[j] = 1. / (pq[j] + yb2);
        xp[j] = pf[j] * d;
        yp[j] = pf[j] * yb;
    }
    if (ax <= lim4) {
        for (int j = 0; j < 6; j++) k += cc[j] * (ym[j] + yp[j]) - ss[j] * (xm[j] - xp[j]);
        return k;
    }
    double yf = y + 3.;
    for (int j = 0; j < 6; j++)
        k += (cc[j] * (mq[j] * mf[j] - ym[j] * 1.5) + ss[j] * yf * xm[j]) / (mq[j] + 2.25) +
             (cc[j] * (pq[j] * pf[j] - yp[j] * 1.5) - ss[j] * yf * xp[j]) / (pq[j] + 2.25);
    return y * k + exp(-x2);
}

/* Carlson's symmetric elliptic integrals R_F and R_J by the duplication theorem (Carlson,
 * Numer. Algorithms 10, 1995), iterated until the arguments agree to 1e-4 relative, then
 * the published fifth-order series. */
static double carlson_rf(double x, double y, double z)
{
    for (int i = 0; i < 100; i++) {
        double mu = (x + y + z) / 3.0;
        double dx = (mu - x) / mu, dy = (mu - y) / mu, dz = (mu - z) / mu;
        if (fmax(fabs(dx), fmax(fabs(dy), fabs(dz))) < 1e-4 && i > 0) {
            double e2 = dx * dy - dz * dz, e3 = dx * dy * dz;
            return (1.0 + (e2 / 24.0 - 0.1 - 3.0 * e3 / 44.0) * e2 + e3 / 14.0) / sqrt(mu);
        }
        double sx = sqrt(x), sy = sqrt(y), sz = sqrt(z);
        double l = sx * (sy + sz) + sy * sz;
        x = 0.25 * (x + l);
        y = 0.25 * (y + l);
        z = 0.25 * (z + l);
    }
    return NAN;
}

static double carlson_rc(double x, double y)
{
    for (int i = 0; i < 100; i++) {
        double mu = (x + y + y) / 3.0, s = (y - mu) / mu;
        if (fabs(s) < 1e-4 && i > 0)
            return (1.0 + s * s * (0.3 + s * (1.0 / 7.0 + s * (0.375 + s * 9.0 / 22.0)))) /
                   sqrt(mu);
        double l = 2.0 * sqrt(x) * sqrt(y) + y;
        x = 0.25 * (x + l);
        y = 0.25 * (y + l);
    }
    return NAN;
}

static double carlson_rj(double x, double y, double z, double p)
{
    double sum = 0.0, fac = 1.0;
    for (int i = 0; i < 100; i++) {
        double mu = (x + y + z + p + p) / 5.0;
        double dx = (mu - x) / mu, dy = (mu - y) / mu, dz = (mu - z) / mu, dp = (mu - p) / mu;
        if (fmax(fmax(fabs(dx), fabs(dy)), fmax(fabs(dz), fabs(dp))) < 1e-4 && i > 0) {
            double ea = dx * (dy + dz) + dy * dz, eb = dx * dy * dz, ec = dp * dp;
            double ed = ea - 3.0 * ec, ee = eb + 2.0 * dp * (ea - ec);
            double s1 = 1.0 + ed * (-3.0 / 14.0 + 9.0 / 88.0 * ed - 9.0 / 52.0 * ee);
            double s2 = eb * (1.0 / 6.0 + dp * (-9.0 / 22.0 + dp * 3.0 / 26.0));
            double s3 = dp * ea * (1.0 / 3.0 - dp * 3.0 / 22.0) - dp * ec / 3.0;
            return 3.0 * sum + fac * (s1 + s2 + s3) / (mu * sqrt(mu));
        }
        double sx = sqrt(x), sy = sqrt(y), sz = sqrt(z);
        double l = sx * (sy + sz) + sy * sz;
        double al = p * (sx + sy + sz) + sx * sy * sz;
        double be = p * (p + l) * (p + l);
        sum += fac * carlson_rc(al * al, be);
        fac *= 0.25;
        x = 0.25 * (x + l);
        y = 0.25 * (y + l);
        z = 0.25 * (z + l);
        p = 0.25 * (p + l);
    }
    return NAN;
}

/* Complete elliptic integral of the third kind Pi(n, k) (gnuplot's EllipticPi(n,k)). */
double pv_sf_ellip_pi(double n, double k)
{
    double q = (1.0 - k) * (1.0 + k);
    if (!(q > 0.0) || !(n < 1.0)) return NAN;
    return carlson_rf(0.0, q, 1.0) + n * carlson_rj(0.0, q, 1.0, 1.0 - n) / 3.0;
}

/* Normal quantile: Wichura's algorithm AS241 (PPND16, Appl. Statist. 37, 1988), accurate
 * to about 1e-16; published coefficients. */
static double poly8(const double *c, double x)
{
    double v = 0.0;
    for (int k = 7; k >= 0; k--) v = v * x + c[k];
    return v;
}

static double ppnd16(double p)
{
    static const double a[8] = {3.3871328727963666080, 1.3314166789178437745E+2,
        1.9715909503065514427E+3, 1.3731693765509461125E+4, 4.5921953931549871457E+4,
        6.7265770927008700853E+4, 3.3430575583588128105E+4, 2.5090809287301226727E+3};
    static const double b[8] = {1.0, 4.2313330701600911252E+1, 6.8718700749205790830E+2,
        5.3941960214247511077E+3, 2.1213794301586595867E+4, 3.9307895800092710610E+4,
        2.8729085735721942674E+4, 5.2264952788528545610E+3};
    static const double c[8] = {1.42343711074968357734, 4.63033784615654529590,
        5.76949722146069140550, 3.64784832476320460504, 1.27045825245236838258,
        2.41780725177450611770E-1, 2.27238449892691845833E-2, 7.74545014278341407640E-4};
    static const double d[8] = {1.0, 2.05319162663775882187, 1.67638483018380384940,
        6.89767334985100004550E-1, 1.48103976427480074590E-1, 1.51986665636164571966E-2,
        5.47593808499534494600E-4, 1.05075007164441684324E-9};
    static const double e[8] = {6.65790464350110377720, 5.46378491116411436990,
        1.78482653991729133580, 2.96560571828504891230E-1, 2.65321895265761230930E-2,
        1.24266094738807843860E-3, 2.71155556874348757815E-5, 2.01033439929228813265E-7};
    static const double f[8] = {1.0, 5.99832206555887937690E-1, 1.36929880922735805310E-1,
        1.48753612908506148525E-2, 7.86869131145613259100E-4, 1.84631831751005468180E-5,
        1.42151175831644588870E-7, 2.04426310338993978564E-15};
    double q = p - 0.5;
    if (fabs(q) <= 0.425) {
        double r = 0.180625 - q * q;
        return q * poly8(a, r) / poly8(b, r);
    }
    double r = sqrt(-log(q < 0.0 ? p : 1.0 - p)), v;
    if (r <= 5.0) {
        r -= 1.6;
        v = poly8(c, r) / poly8(d, r);
    } else {
        r -= 5.0;
        v = poly8(e, r) / poly8(f, r);
    }
    return q < 0.0 ? -v : v;
}

/* Inverse error function: the normal quantile, refined by one Newton step on erf (erfc
 * in the tails, where erf has no precision left). */
double pv_sf_inverf(double x)
{
    double y = ppnd16((x + 1.0) * 0.5) * sqrt(0.5);
    double g = 2.0 / sqrt(PV_PI) * exp(-y * y);
    if (fabs(x) <= 0.5) y -= (erf(y) - x) / g;
    else if (x > 0.0) y += (erfc(y) - (1.0 - x)) / g;
    else y -= (erfc(-y) - (1.0 + x)) / g;
    return y;
}
/* Airy function Ai(x), real argument. Near the origin the Maclaurin series in long double
 * (its terms cancel: about e^(2 zeta) of the 19 digits are lost, zeta = 2/3 |x|^1.5, so
 * ~10 digits remain at the switch points); beyond, the asymptotic expansions cut at their
 * smallest term (their error there is about e^(-2 zeta)). */
static double airy_ai(double x)
{
    if (isnan(x)) return x;
    if (x > 6.5 || x < -9.0) {
        double y = fabs(x), zeta = 2.0 / 3.0 * y * sqrt(y);
        /* u_k = Gamma(3k+1/2) / (54^k k! Gamma(k+1/2)) */
        double u = 1, sum_even = 1, sum_odd = 0, term_prev = 1, sum = 1;
        for (int k = 1; k < 60; k++) {
            u *= (6.0 * k - 5) * (6.0 * k - 3) * (6.0 * k - 1) / (216.0 * k * (2.0 * k - 1));
            double term = u / pow(zeta, k);
            if (term > term_prev || term < 1e-17) break;
            term_prev = term;
            if (x > 0) sum += (k & 1) ? -term : term;
            else if (k & 1) sum_odd += ((k / 2) & 1) ? -term : term;
            else sum_even += ((k / 2) & 1) ? -term : term;
        }
        if (x > 0) return exp(-zeta) / (2.0 * sqrt(PV_PI) * pow(y, 0.25)) * sum;
        double ph = zeta + PV_PI / 4;
        return (sin(ph) * sum_even - cos(ph) * sum_odd) / (sqrt(PV_PI) * pow(y, 0.25));
    }
    long double x3 = (long double)x * x * x, f = 1, g = x, tf = 1, tg = x;
    for (int k = 1; k < 200; k++) {
        tf *= x3 / ((3.0L * k - 1) * (3.0L * k));
        tg *= x3 / ((3.0L * k) * (3.0L * k + 1));
        f += tf, g += tg;
        if (fabsl(tf) < 1e-22L * fabsl(f) && fabsl(tg) < 1e-22L * (fabsl(g) + 1e-300L)) break;
    }
    const long double c1 = 0.355028053887817239260063186004L, c2 = 0.258819403792806798405183560189L;
    return (double)(c1 * f - c2 * g);
}

void pv_bi_airy(PV_BI_ARGS)
{
    PV_BI_UNUSED();
    if (!pv_barg_num(&args[0], r)) return;
    if (args[0].type == PV_V_CMPLX && args[0].im != 0) {
        r->err = "airy: complex argument not supported";
        return;
    }
    *out = pv_real(airy_ai(pv_value_real(&args[0])));
}
