/* The one random generator of the tests and benchmarks (qru_test.h).  A
 * file of its own so that programs which cannot link the test support
 * library (the allocation-failure test) compile it in directly. */
#include <math.h>

/* declared in qru_test.h */
double qru_test_urand(unsigned *seed);
void qru_test_sparse(int m, int s, unsigned *seed, double *x0);

/* xorshift32 on the caller's seed; never returns with *seed == 0. */
static unsigned next_u32(unsigned *seed)
{
    unsigned x = *seed ? *seed : 0x9e3779b9u;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *seed = x;
    return x;
}

double qru_test_urand(unsigned *seed)
{
    /* 2^-31 * u - 1 with u in [1, 2^32): in (-1, 1), never 0 unless
     * u = 2^31 (then use the next number). */
    double v;
    do {
        v = (double)next_u32(seed) * (1.0 / 2147483648.0) - 1.0;
    } while (v == 0.0 || v <= -1.0 || v >= 1.0);
    return v;
}

void qru_test_sparse(int m, int s, unsigned *seed, double *x0)
{
    for (int j = 0; j < m; ++j)
        x0[j] = 0.0;
    for (int t = 0; t < s && t < m;) {
        int j = (int)((qru_test_urand(seed) + 1.0) * 0.5 * m) % m;
        if (x0[j] != 0.0)
            continue;
        double v = qru_test_urand(seed);
        x0[j] = (v < 0 ? -1.0 : 1.0) * (1.0 + fabs(v));
        ++t;
    }
}
