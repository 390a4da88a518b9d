/*
 * Time, medians, host data and the updated problem of a point.
 * (Shared parts of the GPU benchmarks; see bench_gpu_common.h.)
 */
#include "bench_gpu_common.h"

#include <complex.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <lapacke.h>

#include "qru_internal.h" /* qru_dtype_size */

/* ---- time, statistics, host data -------------------------------------------- */

double bg_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double bg_median(double *t, int n)
{
    if (n < 1)
        return NAN;
    qsort(t, (size_t)n, sizeof *t, cmpd);
    return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

const char *bg_dtype_name(qru_dtype dt)
{
    return dt == QRU_DOUBLE           ? "double"
           : dt == QRU_FLOAT          ? "float"
           : dt == QRU_COMPLEX_DOUBLE ? "complex double"
                                      : "complex float";
}

char bg_dtype_char(qru_dtype dt)
{
    return dt == QRU_DOUBLE           ? 'd'
           : dt == QRU_FLOAT          ? 's'
           : dt == QRU_COMPLEX_DOUBLE ? 'z'
                                      : 'c';
}

size_t bg_esize(qru_dtype dt) { return qru_dtype_size(dt); }

double bg_flops_factor(qru_dtype dt) { return flops_type_factor(dt); }

void bg_check(int st, const char *what)
{
    if (st) {
        fprintf(stderr, "FATAL: %s failed: %d (%s)\n", what, st,
                qru_strerror(st));
        exit(1);
    }
}

void *bg_alloc(qru_dtype dt, size_t len)
{
    void *p = calloc(len ? len : 1, qru_dtype_size(dt));
    if (!p) {
        fprintf(stderr, "FATAL: out of host memory (%zu elements)\n", len);
        exit(1);
    }
    return p;
}

double bg_get(qru_dtype dt, const void *a, size_t i)
{
    return dt == QRU_DOUBLE ? ((const double *)a)[i]
                            : (double)((const float *)a)[i];
}

void bg_set(qru_dtype dt, void *a, size_t i, double v)
{
    if (dt == QRU_DOUBLE)
        ((double *)a)[i] = v;
    else
        ((float *)a)[i] = (float)v;
}

double complex bg_getz(qru_dtype dt, const void *a, size_t i)
{
    if (!qru_dtype_complex(dt))
        return bg_get(dt, a, i);
    if (dt == QRU_COMPLEX_DOUBLE)
        return ((const double complex *)a)[i];
    return ((const float complex *)a)[i];
}

void bg_setz(qru_dtype dt, void *a, size_t i, double complex v)
{
    if (!qru_dtype_complex(dt))
        bg_set(dt, a, i, creal(v));
    else if (dt == QRU_COMPLEX_DOUBLE)
        ((double complex *)a)[i] = v;
    else
        ((float complex *)a)[i] = (float complex)v;
}

/* the base type's values of an array of len elements of dt: len, or 2 len
 * (re, im) for a complex type */
static size_t reals_of(qru_dtype dt, size_t len)
{
    return qru_dtype_complex(dt) ? 2 * len : len;
}

void bg_rand(qru_dtype dt, size_t len, void *a, unsigned long long *seed)
{
    unsigned long long s = *seed;
    qru_dtype rt = qru_dtype_real(dt);
    for (size_t i = 0; i < reals_of(dt, len); ++i) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        double u = (double)(s >> 11) * (1.0 / 9007199254740992.0); /* [0,1) */
        bg_set(rt, a, i, 2.0 * u - 1.0);
    }
    *seed = s;
}

double bg_rel_diff(qru_dtype dt, size_t len, const void *x, const void *y)
{
    double num = 0.0, den = 0.0;
    qru_dtype rt = qru_dtype_real(dt);
    for (size_t i = 0; i < reals_of(dt, len); ++i) {
        double a = bg_get(rt, x, i), b = bg_get(rt, y, i);
        num += (a - b) * (a - b);
        den += b * b;
    }
    return den > 0.0 ? sqrt(num / den) : sqrt(num);
}

void bg_updated(qru_dtype dt, char kind, int n, int m, int r, int k, int p,
                const void *A, const void *b, const void *U, const void *e,
                void **A1p, void **b1p, int *n1p, int *m1p)
{
    int n1 = n, m1 = m;
    if (kind == 'c')
        m1 = m + p;
    else if (kind == 'C')
        m1 = m - p;
    else if (kind == 'r')
        n1 = n + p;
    else if (kind == 'R')
        n1 = n - p;
    void *A1 = bg_alloc(dt, (size_t)n1 * m1), *b1 = bg_alloc(dt, (size_t)n1 * r);
    size_t es = qru_dtype_size(dt);
    /* A1 */
    for (int j = 0; j < m1; ++j) {
        char *dst = (char *)A1 + es * (size_t)j * n1;
        if (kind == 'c' && j >= k && j < k + p) {
            memcpy(dst, (const char *)U + es * (size_t)(j - k) * n, es * n);
            continue;
        }
        int sj = j;
        if (kind == 'c' && j >= k + p)
            sj = j - p;
        if (kind == 'C' && j >= k)
            sj = j + p;
        const char *src = (const char *)A + es * (size_t)sj * n;
        if (kind == 'c' || kind == 'C') {
            memcpy(dst, src, es * n);
        } else if (kind == 'r') {
            memcpy(dst, src, es * k);
            for (int i = 0; i < p; ++i)
                memcpy(dst + es * (k + i),
                       (const char *)U + es * (i + (size_t)j * p), es);
            memcpy(dst + es * (k + p), src + es * k, es * (n - k));
        } else if (kind == 'R') {
            memcpy(dst, src, es * k);
            memcpy(dst + es * k, src + es * (k + p), es * (n - k - p));
        } else { /* 'm': A + U V', U n x p and V = e m x p (' the
                    conjugate transpose) */
            for (int i = 0; i < n; ++i) {
                double complex v = bg_getz(dt, src, (size_t)i);
                for (int l = 0; l < p; ++l)
                    v += bg_getz(dt, U, i + (size_t)l * n) *
                         conj(bg_getz(dt, e, j + (size_t)l * m));
                bg_setz(dt, dst, (size_t)i, v);
            }
        }
    }
    /* b1 */
    for (int j = 0; j < r; ++j) {
        char *dst = (char *)b1 + es * (size_t)j * n1;
        const char *src = (const char *)b + es * (size_t)j * n;
        if (kind == 'r') {
            memcpy(dst, src, es * k);
            for (int i = 0; i < p; ++i)
                memcpy(dst + es * (k + i),
                       (const char *)e + es * (i + (size_t)j * p), es);
            memcpy(dst + es * (k + p), src + es * k, es * (n - k));
        } else if (kind == 'R') {
            memcpy(dst, src, es * k);
            memcpy(dst + es * k, src + es * (k + p), es * (n - k - p));
        } else {
            memcpy(dst, src, es * n);
        }
    }
    *A1p = A1;
    *b1p = b1;
    *n1p = n1;
    *m1p = m1;
}
