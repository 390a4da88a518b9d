/* Consumer of an installed qru: factorises a small matrix on the CPU,
 * checks ||A - Q R|| and a least-squares solve.  Exit 0 on success. */
#include <math.h>
#include <stdio.h>

#include <qru.h>

#define N 5
#define M 3

int main(void)
{
    double A[N * M], Q[N * N], R[N * M], b[N], x[M];
    for (int j = 0; j < M; ++j)
        for (int i = 0; i < N; ++i)
            A[i + j * N] = 1.0 / (1.0 + i + 2 * j) + (i == j ? 2.0 : 0.0);
    for (int i = 0; i < N; ++i)
        b[i] = 1.0 + 0.5 * i;

    qru_context *ctx = NULL;
    int st = qru_context_create(QRU_BACKEND_CPU, &ctx);
    if (st) {
        fprintf(stderr, "qru_context_create: %s\n", qru_strerror(st));
        return 1;
    }
    qru_matrix *dA = NULL, *dQ = NULL, *db = NULL, *dx = NULL;
    st = qru_matrix_create(ctx, QRU_DOUBLE, N, M, 0, &dA);
    if (!st)
        st = qru_matrix_create(ctx, QRU_DOUBLE, N, N, 0, &dQ);
    if (!st)
        st = qru_matrix_upload(dA, A, N);
    if (!st)
        st = qru_qr_factor(ctx, 0, dA, dQ, NULL);
    if (!st)
        st = qru_matrix_download(dA, R, N);
    if (!st)
        st = qru_matrix_download(dQ, Q, N);
    if (st) {
        fprintf(stderr, "qr: %s\n", qru_strerror(st));
        return 1;
    }
    double err = 0.0;
    for (int j = 0; j < M; ++j)
        for (int i = 0; i < N; ++i) {
            double s = A[i + j * N];
            for (int k = 0; k < N; ++k)
                s -= Q[i + k * N] * R[k + j * N];
            err = fmax(err, fabs(s));
        }

    /* least squares: A' (A x - b) = 0 */
    qru_lsq *f = NULL;
    st = qru_matrix_upload(dA, A, N);
    if (!st)
        st = qru_matrix_create(ctx, QRU_DOUBLE, N, 1, 0, &db);
    if (!st)
        st = qru_matrix_create(ctx, QRU_DOUBLE, M, 1, 0, &dx);
    if (!st)
        st = qru_matrix_upload(db, b, N);
    if (!st)
        st = qru_lsq_create(ctx, dA, db, NULL, &f);
    if (!st)
        st = qru_lsq_solve(f, dx);
    if (!st)
        st = qru_matrix_download(dx, x, M);
    if (st) {
        fprintf(stderr, "lsq: %s\n", qru_strerror(st));
        return 1;
    }
    double ne = 0.0;
    for (int j = 0; j < M; ++j) {
        double s = 0.0;
        for (int i = 0; i < N; ++i) {
            double ri = -b[i];
            for (int k = 0; k < M; ++k)
                ri += A[i + k * N] * x[k];
            s += A[i + j * N] * ri;
        }
        ne = fmax(ne, fabs(s));
    }
    qru_lsq_destroy(f);
    qru_matrix_destroy(dA);
    qru_matrix_destroy(dQ);
    qru_matrix_destroy(db);
    qru_matrix_destroy(dx);
    qru_context_destroy(ctx);
    printf("qru %s: ||A - QR||_max = %.3g, ||A'(Ax - b)||_max = %.3g\n",
           qru_version(), err, ne);
    return err < 1e-13 && ne < 1e-12 ? 0 : 1;
}
