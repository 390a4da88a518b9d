/* Matrices in a context's memory. */
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qru_internal.h"

int qru_mat_ok(const qru_context *ctx, const qru_matrix *M, qru_dtype dt)
{
    return M && M->ctx == ctx && M->dtype == dt;
}

const char *qru_dtype_name(qru_dtype dt)
{
    return dt == QRU_DOUBLE           ? "double"
           : dt == QRU_FLOAT          ? "float"
           : dt == QRU_COMPLEX_FLOAT  ? "complex float"
           : dt == QRU_COMPLEX_DOUBLE ? "complex double"
                                      : "?";
}
#define dtype_name qru_dtype_name

int qru_arg_batch(const qru_context *ctx, int i, const char *name,
                  const qru_matrix *M, qru_dtype dt)
{
    if (!M)
        return qru_fail_arg(i, "%s is NULL", name);
    if (M->ctx != ctx)
        return qru_fail_arg(i, "%s belongs to another context", name);
    if (M->dtype != dt)
        return qru_fail_arg(i, "%s holds %s, but the call works in %s", name,
                            dtype_name(M->dtype), dtype_name(dt));
    return 0;
}

int qru_arg_matrix(const qru_context *ctx, int i, const char *name,
                   const qru_matrix *M, qru_dtype dt)
{
    int st = qru_arg_batch(ctx, i, name, M, dt);
    if (!st && M->count != 1)
        st = qru_fail_arg(i, "%s is a batch of %d matrices, but the call "
                             "takes one matrix (count 1; the batch routines, "
                             "e.g. qru_chol_update_batch, take batches)",
                          name, M->count);
    return st;
}

int qru_arg_square(const qru_context *ctx, int i, const char *name,
                   const qru_matrix *M, qru_dtype dt)
{
    int st = qru_arg_matrix(ctx, i, name, M, dt);
    if (!st && M->rows != M->cols)
        st = qru_fail_arg(i, "%s is %d x %d, but it must be square", name,
                          M->rows, M->cols);
    return st;
}

int qru_arg_char(int i, const char *name, char *c, const char *allowed)
{
    char u = (char)toupper((unsigned char)*c);
    if (u != '\0' && strchr(allowed, u)) {
        *c = u;
        return 0;
    }
    char list[64] = "";
    for (size_t j = 0; allowed[j] && strlen(list) + 6 < sizeof list; ++j)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s'%c'",
                 j ? (allowed[j + 1] ? ", " : " or ") : "", allowed[j]);
    if (isprint((unsigned char)*c))
        return qru_fail_arg(i, "%s = '%c', but it must be %s (either case)",
                            name, *c, list);
    return qru_fail_arg(i, "%s = character code %d, but it must be %s", name,
                        (int)(unsigned char)*c, list);
}

/* The allocation and byte position of element p of an array with
 * elements of es bytes. */
static void mem_at(const qru_context *ctx, size_t es, qru_ptr p,
                   const void **base, uintptr_t *pos)
{
    if (ctx->ops->mem_locate) {
        ctx->ops->mem_locate(ctx, p.h, base, pos);
    } else {
        *base = NULL;
        *pos = (uintptr_t)p.h;
    }
    *pos += (uintptr_t)(p.off * es);
}

/* [0, n) and [lo, lo + m) share an integer (n, m >= 1) */
static int meet(long long n, long long lo, long long m)
{
    return lo < n && lo + m > 0;
}

int qru_mem_overlap(const qru_context *ctx, size_t es, qru_ptr a, int ra,
                    int ca, int lda, qru_ptr b, int rb, int cb, int ldb)
{
    if (ra <= 0 || ca <= 0 || rb <= 0 || cb <= 0)
        return 0;
    const void *ba, *bb;
    uintptr_t pa, pb;
    mem_at(ctx, es, a, &ba, &pa);
    mem_at(ctx, es, b, &bb, &pb);
    if (ba != bb)
        return 0;
    uintptr_t ea = ((uintptr_t)(ca - 1) * (uintptr_t)lda + (uintptr_t)ra) * es,
              eb = ((uintptr_t)(cb - 1) * (uintptr_t)ldb + (uintptr_t)rb) * es;
    if (pa >= pb + eb || pb >= pa + ea)
        return 0; /* the spans are apart */
    if (pb < pa) { /* a first */
        uintptr_t t = pa;
        pa = pb;
        pb = t;
        int r = ra, c = ca;
        ra = rb;
        ca = cb;
        rb = r;
        cb = c;
    }
    if (lda != ldb || (pb - pa) % es != 0)
        return 1;
    /* b starts dr rows and dq columns after a, one column apart further
     * where its rows wrap past ld (ra, rb <= ld) */
    long long ld = lda, d = (long long)((pb - pa) / es), dq = d / ld,
              dr = d % ld;
    return (meet(ra, dr, rb) && meet(ca, dq, cb)) ||
           (meet(ra, dr - ld, rb) && meet(ca, dq + 1, cb));
}

int qru_mem_same_start(const qru_context *ctx, size_t es, qru_ptr a, int lda,
                       qru_ptr b, int ldb)
{
    const void *ba, *bb;
    uintptr_t pa, pb;
    mem_at(ctx, es, a, &ba, &pa);
    mem_at(ctx, es, b, &bb, &pb);
    return ba == bb && pa == pb && lda == ldb;
}

int qru_mat_overlap(const qru_matrix *A, const qru_matrix *B)
{
    if (A == B) /* one matrix given twice, also an empty one */
        return 1;
    return qru_mem_overlap(A->ctx, qru_dtype_size(A->dtype), A->p, A->rows,
                           A->cols, A->ld, B->p, B->rows, B->cols, B->ld);
}

int qru_mat_same_start(const qru_matrix *A, const qru_matrix *B)
{
    return qru_mem_same_start(A->ctx, qru_dtype_size(A->dtype), A->p, A->ld,
                              B->p, B->ld);
}

/* Elements from a batch's first element to its last (0: empty). */
static size_t batch_span(const qru_matrix *M)
{
    if (M->count <= 0 || M->rows <= 0 || M->cols <= 0)
        return 0;
    return (size_t)(M->count - 1) * M->stride +
           (size_t)(M->cols - 1) * (size_t)M->ld + (size_t)M->rows;
}

static long long floor_div(long long a, long long b)
{
    long long q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

/* Apart spans share nothing; with equal leading dimensions and strides
 * page i of A and page i + m of B lie d + m stride elements apart, which
 * only a few m bring within a page's span: one pair of pages is compared
 * for each such m (the overlap depends only on the distance).  Other
 * layouts whose spans meet count as overlapping. */
int qru_batch_overlap(const qru_matrix *A, const qru_matrix *B)
{
    if (A == B)
        return 1;
    size_t es = qru_dtype_size(A->dtype), la = batch_span(A),
           lb = batch_span(B);
    if (!la || !lb)
        return 0;
    const void *ba, *bb;
    uintptr_t pa, pb;
    mem_at(A->ctx, es, A->p, &ba, &pa);
    mem_at(A->ctx, es, B->p, &bb, &pb);
    if (ba != bb || pa >= pb + lb * es || pb >= pa + la * es)
        return 0;
    if (A->count == 1 && B->count == 1)
        return qru_mat_overlap(A, B);
    uintptr_t gap = pa > pb ? pa - pb : pb - pa;
    if (A->ld != B->ld || A->stride != B->stride || gap % es != 0)
        return 1;
    long long d = (long long)(gap / es) * (pb >= pa ? 1 : -1);
    long long st = (long long)A->stride;
    long long pga = (long long)(A->cols - 1) * A->ld + A->rows,
              pgb = (long long)(B->cols - 1) * B->ld + B->rows;
    for (long long m = floor_div(-pgb - d, st); m <= floor_div(pga - d, st);
         ++m) {
        long long i0 = m < 0 ? -m : 0;
        if (i0 >= A->count || i0 + m >= B->count)
            continue; /* no page pair (i, i + m) */
        if (qru_mem_overlap(A->ctx, es, qru_mat_page(A, (int)i0), A->rows,
                            A->cols, A->ld, qru_mat_page(B, (int)(i0 + m)),
                            B->rows, B->cols, B->ld))
            return 1;
    }
    return 0;
}

int qru_batch_same_start(const qru_matrix *A, const qru_matrix *B)
{
    return qru_mat_same_start(A, B) &&
           (A->stride == B->stride || (A->count <= 1 && B->count <= 1));
}

static int dtype_ok(qru_dtype dt)
{
    return dt == QRU_FLOAT || dt == QRU_DOUBLE || qru_dtype_complex(dt);
}

/* es * ((count - 1) stride + ld cols): the bytes of a batch (0 for
 * count 0); QRU_ERR_ALLOC when that does not fit in a size_t. */
static int batch_bytes(size_t es, int ld, int cols, int count, size_t stride,
                       size_t *bytes)
{
    size_t page = 0;
    QRU_TRY(qru_bytes(1, ld, cols, &page));
    if (count <= 0) {
        *bytes = 0;
        return 0;
    }
    size_t c = (size_t)(count - 1);
    if (c && stride > (SIZE_MAX - page) / c)
        return QRU_ERR_ALLOC;
    size_t el = c * stride + page;
    if (el > SIZE_MAX / es)
        return QRU_ERR_ALLOC;
    *bytes = el * es;
    return 0;
}

static int new_matrix(qru_context *ctx, qru_dtype dtype, int rows, int cols,
                      int ld, int count, size_t stride, void *mem,
                      qru_matrix **M)
{
    qru_matrix *m = calloc(1, sizeof *m);
    if (!m)
        return qru_fail(QRU_ERR_ALLOC, "allocating a matrix header failed");
    m->ctx = ctx;
    m->dtype = dtype;
    m->rows = rows;
    m->cols = cols;
    m->ld = ld;
    m->count = count;
    m->stride = stride;
    if (mem) {
        m->p.h = mem;
    } else {
        size_t bytes = 0;
        int st = batch_bytes(qru_dtype_size(dtype), ld, cols, count, stride,
                             &bytes);
        if (st)
            st = qru_fail(st, "%d %d x %d %s matrices do not fit in memory "
                              "(size_t overflow)", count, ld, cols,
                          dtype_name(dtype));
        if (!st)
            st = ctx->ops->mem_alloc(ctx, bytes, &m->p.h);
        if (st) {
            free(m);
            return st;
        }
        m->owned = 1;
    }
    *M = m;
    return 0;
}

/* The checks shared by qru_matrix_create and qru_matrix_wrap: dtype (2),
 * rows (3), cols (4); QRU_ARG_LD: ld (argument ild; 0 becomes
 * max(1, rows)). */
#define QRU_ARG_SHAPE(ctx, dtype, rows, cols)                                  \
    QRU_ARG(ctx, 2, dtype_ok(dtype),                                           \
            "dtype = %d is not a qru_dtype (QRU_FLOAT (1) .. "                 \
            "QRU_COMPLEX_DOUBLE (4))", (int)dtype);                            \
    QRU_ARG(ctx, 3, rows >= 0, "rows = %d, but rows must be >= 0", rows);      \
    QRU_ARG(ctx, 4, cols >= 0, "cols = %d, but cols must be >= 0", cols)
#define QRU_ARG_LD(ctx, rows, ld, ild)                                         \
    if (ld == 0)                                                               \
        ld = rows > 1 ? rows : 1;                                              \
    QRU_ARG(ctx, ild, ld >= rows && ld >= 1,                                   \
            "ld = %d, but ld must be >= max(1, rows) = %d (or 0 for that)",    \
            ld, rows > 1 ? rows : 1)

int qru_check_real(qru_dtype dtype)
{
    if (!qru_dtype_complex(dtype))
        return 0;
    return qru_fail(QRU_ERR_UNSUPPORTED,
                    "%s data is not supported by this routine (complex "
                    "types: the QR factorisation, least squares and the QR "
                    "updates)", dtype_name(dtype));
}

int qru_check_complex_ops(const qru_context *ctx, qru_dtype dtype,
                          unsigned long long ops)
{
    if (!qru_dtype_complex(dtype))
        return 0;
    unsigned long long out = ops & ~ctx->backend_ops->complex_ops;
    if (!out)
        return 0;
    int op = 0;
    while (!((out >> op) & 1ull))
        ++op;
    return qru_fail(QRU_ERR_UNSUPPORTED,
                    "%s data is not supported on the %s backend (its op %s, "
                    "which this routine runs, takes real data only)",
                    dtype_name(dtype), ctx->backend_ops->name,
                    qru_op_name((qru_op_id)op));
}

int qru_check_supports(const qru_context *ctx, qru_dtype dtype)
{
    if (ctx->ops->supports(ctx, dtype))
        return 0;
    return qru_fail(QRU_ERR_UNSUPPORTED, "the %s device '%s' does not support "
                    "%s", qru_backend_name(ctx->backend), ctx->device_name,
                    dtype_name(dtype));
}

int qru_matrix_create(qru_context *ctx, qru_dtype dtype, int rows, int cols,
                      int ld, qru_matrix **M)
{
    QRU_ARG(NULL, 1, ctx, "ctx is NULL");
    QRU_ARG_SHAPE(ctx, dtype, rows, cols);
    QRU_ARG_LD(ctx, rows, ld, 5);
    QRU_ARG(ctx, 6, M, "M (the output) is NULL");
    QRU_CHECK(ctx, qru_check_supports(ctx, dtype));
    QRU_RET(ctx, new_matrix(ctx, dtype, rows, cols, ld, 1,
                            (size_t)ld * (size_t)cols, NULL, M));
}

int qru_matrix_view(qru_context *ctx, qru_dtype dtype, int rows, int cols,
                    qru_ptr p, int ld, qru_matrix **M)
{
    int st = new_matrix(ctx, dtype, rows, cols, ld, 1,
                        (size_t)ld * (size_t)cols, p.h, M);
    if (!st)
        (*M)->p.off = p.off;
    return st;
}

int qru_matrix_wrap(qru_context *ctx, qru_dtype dtype, int rows, int cols,
                    void *mem, int ld, qru_matrix **M)
{
    QRU_ARG(NULL, 1, ctx, "ctx is NULL");
    QRU_ARG_SHAPE(ctx, dtype, rows, cols);
    QRU_ARG(ctx, 5, mem, "mem is NULL");
    QRU_ARG_LD(ctx, rows, ld, 6);
    QRU_ARG(ctx, 7, M, "M (the output) is NULL");
    QRU_CHECK(ctx, qru_check_supports(ctx, dtype));
    QRU_RET(ctx, new_matrix(ctx, dtype, rows, cols, ld, 1,
                            (size_t)ld * (size_t)cols, mem, M));
}

/* count (argument ic) and stride (is; 0 becomes ld * cols) of a batch */
#define QRU_ARG_PAGES(ctx, ld, cols, count, stride, ic, is)                   \
    QRU_ARG(ctx, ic, count >= 0, "count = %d, but count must be >= 0",       \
            count);                                                            \
    if (stride == 0)                                                           \
        stride = (long long)ld * cols;                                         \
    QRU_ARG(ctx, is, stride >= (long long)ld * cols,                           \
            "stride = %lld, but stride must be >= ld * cols = %lld (or 0 "    \
            "for that)", stride, (long long)ld * cols)

int qru_matrix_create_batch(qru_context *ctx, qru_dtype dtype, int rows,
                            int cols, int ld, int count, long long stride,
                            qru_matrix **M)
{
    QRU_ARG(NULL, 1, ctx, "ctx is NULL");
    QRU_ARG_SHAPE(ctx, dtype, rows, cols);
    QRU_ARG_LD(ctx, rows, ld, 5);
    QRU_ARG_PAGES(ctx, ld, cols, count, stride, 6, 7);
    QRU_ARG(ctx, 8, M, "M (the output) is NULL");
    QRU_CHECK(ctx, qru_check_supports(ctx, dtype));
    QRU_RET(ctx, new_matrix(ctx, dtype, rows, cols, ld, count,
                            (size_t)stride, NULL, M));
}

int qru_matrix_wrap_batch(qru_context *ctx, qru_dtype dtype, int rows,
                          int cols, void *mem, int ld, int count,
                          long long stride, qru_matrix **M)
{
    QRU_ARG(NULL, 1, ctx, "ctx is NULL");
    QRU_ARG_SHAPE(ctx, dtype, rows, cols);
    QRU_ARG(ctx, 5, mem, "mem is NULL");
    QRU_ARG_LD(ctx, rows, ld, 6);
    QRU_ARG_PAGES(ctx, ld, cols, count, stride, 7, 8);
    QRU_ARG(ctx, 9, M, "M (the output) is NULL");
    QRU_CHECK(ctx, qru_check_supports(ctx, dtype));
    QRU_RET(ctx, new_matrix(ctx, dtype, rows, cols, ld, count,
                            (size_t)stride, mem, M));
}

/* The pages of M as one rows x (cols count) array (contiguous pages, the
 * column count within an int), or 0. */
static int pages_as_one(const qru_matrix *M)
{
    return M->count <= 1 ||
           (M->stride == (size_t)M->ld * (size_t)M->cols &&
            (long long)M->cols * M->count <= INT_MAX);
}

/* host (2) and ldh (3) of a transfer to or from M */
#define QRU_ARG_HOST(M, host, ldh)                                             \
    QRU_ARG(M->ctx, 2, host, "host is NULL");                                  \
    QRU_ARG(M->ctx, 3, ldh >= M->rows && ldh >= 1,                             \
            "ldh = %d, but ldh must be >= max(1, rows of M) = %d", ldh,        \
            M->rows > 1 ? M->rows : 1)

/* A batch moves as one array where its pages are contiguous (the host's
 * are: page i at host + i ldh cols), else page by page. */
static int transfer(const qru_matrix *M, const void *up, void *down, int ldh)
{
    qru_context *ctx = M->ctx;
    size_t hp = (size_t)ldh * (size_t)M->cols * qru_dtype_size(M->dtype);
    int one = pages_as_one(M), n = one ? M->count : 1;
    for (int i = 0; i < (one ? 1 : M->count); ++i) {
        int cols = one ? M->cols * n : M->cols;
        qru_ptr p = qru_mat_page(M, i);
        int st = up ? ctx->ops->upload(ctx, M->dtype, M->rows, cols,
                                       (const char *)up + i * hp, ldh, p,
                                       M->ld)
                    : ctx->ops->download(ctx, M->dtype, M->rows, cols, p,
                                         M->ld, (char *)down + i * hp, ldh);
        if (st)
            return st;
    }
    return 0;
}

int qru_matrix_upload(qru_matrix *M, const void *host, int ldh)
{
    QRU_ARG(NULL, 1, M, "M is NULL");
    QRU_ARG_HOST(M, host, ldh);
    QRU_RET(M->ctx, transfer(M, host, NULL, ldh));
}

int qru_matrix_download(const qru_matrix *M, void *host, int ldh)
{
    QRU_ARG(NULL, 1, M, "M is NULL");
    QRU_ARG_HOST(M, host, ldh);
    QRU_RET(M->ctx, transfer(M, NULL, host, ldh));
}

int qru_matrix_copy(const qru_matrix *A, qru_matrix *B)
{
    QRU_ARG(NULL, 1, A, "A is NULL");
    QRU_CHECK(A->ctx, qru_arg_batch(A->ctx, 2, "B", B, A->dtype));
    QRU_ARG(A->ctx, 2, B->rows == A->rows && B->cols == A->cols,
            "B is %d x %d, but A is %d x %d", B->rows, B->cols, A->rows,
            A->cols);
    QRU_ARG(A->ctx, 2, B->count == A->count,
            "B is a batch of %d matrices, but A of %d", B->count, A->count);
    if (A == B)
        QRU_RET(A->ctx, 0);
    qru_context *ctx = A->ctx;
    if (pages_as_one(A) && pages_as_one(B))
        QRU_RET(ctx, A->count > 0
                         ? ctx->ops->copy(ctx, A->dtype, A->rows,
                                          A->cols * A->count, A->p, A->ld,
                                          B->p, B->ld)
                         : 0);
    for (int i = 0; i < A->count; ++i)
        QRU_CHECK(ctx, ctx->ops->copy(ctx, A->dtype, A->rows, A->cols,
                                      qru_mat_page(A, i), A->ld,
                                      qru_mat_page(B, i), B->ld));
    QRU_RET(ctx, 0);
}

void qru_matrix_destroy(qru_matrix *M)
{
    if (!M)
        return;
    if (M->owned && M->p.h) {
        /* queued work may still read the buffer */
        M->ctx->ops->sync(M->ctx);
        M->ctx->ops->mem_free(M->ctx, M->p.h);
    }
    free(M);
}

int qru_matrix_rows(const qru_matrix *M) { return M ? M->rows : -1; }
int qru_matrix_cols(const qru_matrix *M) { return M ? M->cols : -1; }
int qru_matrix_ld(const qru_matrix *M) { return M ? M->ld : -1; }
int qru_matrix_count(const qru_matrix *M) { return M ? M->count : -1; }
long long qru_matrix_stride(const qru_matrix *M)
{
    return M ? (long long)M->stride : -1;
}
qru_dtype qru_matrix_dtype(const qru_matrix *M)
{
    return M ? M->dtype : (qru_dtype)0;
}
void *qru_matrix_data(const qru_matrix *M) { return M ? M->p.h : NULL; }

/* One scan of the uplo part of the rows x cols array at A (laset's
 * convention); adds the count of non-finite elements to *bad. */
static int scan_part(qru_context *ctx, qru_dtype dt, char uplo, int rows,
                     int cols, qru_ptr A, int lda, long long *bad)
{
    int cnt = 0;
    if (rows <= 0 || cols <= 0)
        return 0;
    int st = ctx->ops->count_nonfinite(ctx, dt, uplo, rows, cols, A, lda,
                                       &cnt);
    *bad += cnt;
    return st;
}

int qru_check_finite(qru_context *ctx, int argi, const qru_matrix *M,
                     char uplo, char diag, int k)
{
    if (!ctx->check_finite || !M)
        return 0;
    qru_dtype dt = M->dtype;
    int rows = M->rows, c = M->cols, ld = M->ld;
    long long bad = 0;
    int st;
    if (uplo != 'L' && uplo != 'U') {
        st = scan_part(ctx, dt, 'A', rows, c, M->p, ld, &bad);
    } else {
        /* rows above the block, the block's triangle, rows below it */
        st = scan_part(ctx, dt, 'A', k, c, M->p, ld, &bad);
        if (!st && diag != 'U')
            st = scan_part(ctx, dt, uplo, c, c, qru_ptr_at(M->p, ld, k, 0),
                           ld, &bad);
        else if (!st && uplo == 'L') /* strictly lower */
            st = scan_part(ctx, dt, 'L', c - 1, c,
                           qru_ptr_at(M->p, ld, k + 1, 0), ld, &bad);
        else if (!st) /* strictly upper */
            st = scan_part(ctx, dt, 'U', c, c - 1,
                           qru_ptr_at(M->p, ld, k, 1), ld, &bad);
        if (!st)
            st = scan_part(ctx, dt, 'A', rows - k - c, c,
                           qru_ptr_at(M->p, ld, k + c, 0), ld, &bad);
    }
    if (st)
        return st;
    return bad ? qru_fail_arg(argi, "holds %lld non-finite value(s) (NaN or "
                                    "Inf; QRU_OPTION_CHECK_FINITE is on)",
                              bad)
               : 0;
}

int qru_check_finite_host(const qru_context *ctx, int argi, const double *x,
                          size_t n)
{
    if (!ctx->check_finite || !x)
        return 0;
    for (size_t i = 0; i < n; ++i)
        if (!isfinite(x[i]))
            return qru_fail_arg(argi, "element %zu is not finite (%g; "
                                      "QRU_OPTION_CHECK_FINITE is on)",
                                i + 1, x[i]);
    return 0;
}
