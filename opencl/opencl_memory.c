/*
 * OpenCL memory: buffers, the scratch buffer, transfers and the
 * element-wise copy, laset and transpose kernels.
 */
#include "ocl_internal.h"

/* ---- memory ------------------------------------------------------------ */

int ocl_alloc(qru_context *ctx, size_t bytes, void **h)
{
    ocl_impl *im = IMPL(ctx);
    if (bytes == 0)
        bytes = 64;
    if (im->max_alloc && bytes > im->max_alloc)
        return QRU_ERR_ALLOC;
    cl_int err;
    cl_mem m = clCreateBuffer(im->clctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (err != CL_SUCCESS || !m)
        return ocl_cl_status(err) == QRU_ERR_DEVICE ? QRU_ERR_DEVICE
                                                : QRU_ERR_ALLOC;
    *h = m;
    return 0;
}

void ocl_free(qru_context *ctx, void *h)
{
    (void)ctx;
    if (h)
        clReleaseMemObject((cl_mem)h);
}

/* A sub-buffer lies at CL_MEM_OFFSET in its parent; any other buffer is
 * an allocation of its own. */
void ocl_mem_locate(const qru_context *ctx, const void *h, const void **base,
                    uintptr_t *pos)
{
    (void)ctx;
    cl_mem m = (cl_mem)h, parent = NULL;
    size_t off = 0;
    *base = h;
    *pos = 0;
    if (m &&
        clGetMemObjectInfo(m, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof parent,
                           &parent, NULL) == CL_SUCCESS &&
        parent &&
        clGetMemObjectInfo(m, CL_MEM_OFFSET, sizeof off, &off, NULL) ==
            CL_SUCCESS) {
        *base = parent;
        *pos = off;
    }
}

/* Device scratch of at least 'bytes' bytes (one buffer, grown on demand
 * and kept until the context ends), for ops that read it back before
 * returning (col_norms) and for a copy staged through it (ocl_copy): one
 * in-order queue, and growth waits for the queue before it releases the
 * old buffer. */
int ocl_scratch(qru_context *ctx, size_t bytes, cl_mem *out)
{
    ocl_impl *im = IMPL(ctx);
    if (im->scratch_bytes < bytes) {
        void *h = NULL;
        size_t want = bytes < 4096 ? 4096 : bytes;
        int st = ocl_alloc(ctx, want, &h);
        if (st)
            return st;
        if (im->scratch) {
            clFinish(im->q);
            clReleaseMemObject(im->scratch);
        }
        im->scratch = h;
        im->scratch_bytes = want;
    }
    *out = im->scratch;
    return 0;
}

/* Blocking transfer of n columns of w bytes between a buffer (column j at
 * byte boff + j * bld) and host memory (column j at host + j * hld), as
 * OpenCL 1.2 allows it: no command for nothing (a size or region element
 * of 0 is CL_INVALID_VALUE), one clEnqueue{Read,Write}Buffer where the
 * columns are one block, else a rectangle of the first n - 1 columns, whose
 * extent with the row pitch (origin + region[1] * row pitch, the slice
 * pitch that a zero one stands for) ends where the last column begins,
 * and a plain transfer of the last column: the region stays inside the
 * buffer however strictly an implementation reads "out of bounds" (a
 * strided read of a diagonal ending at the buffer's last element, say). */
static int xfer(qru_context *ctx, int write, cl_mem buf, size_t boff,
                size_t bld, void *host, size_t hld, size_t w, size_t n)
{
    if (w == 0 || n == 0)
        return 0;
    cl_command_queue q = IMPL(ctx)->q;
    cl_int err = CL_SUCCESS;
    if (n == 1 || (bld == w && hld == w)) {
        size_t bytes = n * w;
        err = write ? clEnqueueWriteBuffer(q, buf, CL_TRUE, boff, bytes, host,
                                           0, NULL, NULL)
                    : clEnqueueReadBuffer(q, buf, CL_TRUE, boff, bytes, host,
                                          0, NULL, NULL);
        return ocl_cl_status(err);
    }
    if (bld < w || hld < w) /* columns that overlap: not a rectangle */
        return qru_fail(QRU_ERR_INTERNAL,
                        "OpenCL transfer of %zu x %zu bytes with pitches "
                        "%zu (buffer) and %zu (host)",
                        w, n, bld, hld);
    size_t bo[3] = {boff, 0, 0}, ho[3] = {0, 0, 0};
    size_t region[3] = {w, n - 1, 1};
    err = write ? clEnqueueWriteBufferRect(q, buf, CL_TRUE, bo, ho, region, bld,
                                           0, hld, 0, host, 0, NULL, NULL)
                : clEnqueueReadBufferRect(q, buf, CL_TRUE, bo, ho, region, bld,
                                          0, hld, 0, host, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return ocl_cl_status(err);
    size_t bl = boff + (n - 1) * bld;
    char *hl = (char *)host + (n - 1) * hld;
    err = write ? clEnqueueWriteBuffer(q, buf, CL_TRUE, bl, w, hl, 0, NULL,
                                       NULL)
                : clEnqueueReadBuffer(q, buf, CL_TRUE, bl, w, hl, 0, NULL,
                                      NULL);
    return ocl_cl_status(err);
}

int ocl_upload(qru_context *ctx, qru_dtype dt, int m, int n,
                      const void *src, int lds, qru_ptr dst, int ldd)
{
    if (m <= 0 || n <= 0)
        return 0;
    size_t es = qru_dtype_size(dt);
    /* blocking: the caller may reuse its buffer at once */
    return xfer(ctx, 1, (cl_mem)dst.h, dst.off * es, (size_t)ldd * es,
                (void *)src, (size_t)lds * es, (size_t)m * es, (size_t)n);
}

int ocl_download(qru_context *ctx, qru_dtype dt, int m, int n,
                        qru_ptr src, int lds, void *dst, int ldd)
{
    if (m <= 0 || n <= 0)
        return 0;
    size_t es = qru_dtype_size(dt);
    return xfer(ctx, 0, (cl_mem)src.h, src.off * es, (size_t)lds * es, dst,
                (size_t)ldd * es, (size_t)m * es, (size_t)n);
}

int ocl_copy(qru_context *ctx, qru_dtype dt, int m, int n, qru_ptr src,
                    int lds, qru_ptr dst, int ldd)
{
    if (m <= 0 || n <= 0)
        return 0;
    ocl_prog *p;
    int st = ocl_get_prog(ctx, dt, &p);
    if (st)
        return st;
    ocl_impl *im = IMPL(ctx);
    cl_int cm = m, cn = n, clds = lds, cldd = ldd;
    cl_long so = (cl_long)src.off, dof = (cl_long)dst.off;
    int overlap = 0;
    if (src.h == dst.h) {
        size_t se = src.off + (size_t)(n - 1) * lds + (size_t)m;
        size_t de = dst.off + (size_t)(n - 1) * ldd + (size_t)m;
        overlap = src.off < de && dst.off < se;
    }
    if (!overlap) {
        karg a[] = {KINT(cm),   KINT(cn),  KMEM(src), KLONG(so),
                    KINT(clds), KMEM(dst), KLONG(dof), KINT(cldd)};
        return ocl_launch2d(ctx, p, K_COPY2D, m, n, NARGS(a), a);
    }
    if (dst.off == src.off && lds == ldd)
        return 0;
    if (lds != ldd || dst.off > src.off)
        return QRU_ERR_INTERNAL; /* outside the table's contract */
    /* moving towards the start: one work-group per column when columns do
     * not interact; else staged through the scratch buffer (two copies
     * that do not overlap, as the CUDA backend stages them), and only
     * where that much scratch cannot be had, a single work-group walks
     * the columns in order (on a GPU that is one core for the whole
     * block: 0.2 ms for 800 x 800 on an H200 against 10 us staged) */
    size_t delta = src.off - dst.off;
    cl_int percol = delta + (size_t)m <= (size_t)lds;
    cl_mem tmp;
    if (!percol &&
        ocl_scratch(ctx, (size_t)m * (size_t)n * qru_dtype_size(dt), &tmp) ==
            0) {
        qru_ptr t = {tmp, 0};
        if ((st = ocl_copy(ctx, dt, m, n, src, lds, t, m)) != 0)
            return st;
        return ocl_copy(ctx, dt, m, n, t, m, dst, ldd);
    }
    size_t w = ocl_wg_for(im, p, K_COPY_BACK, (size_t)im->tune.wg);
    size_t l[2] = {w, 1}, g[2] = {w, percol ? min_sz((size_t)n, GRID_CAP) : 1};
    if (percol && (size_t)n > GRID_CAP) { /* keep one group per column */
        for (int j0 = 0; j0 < n; j0 += (int)GRID_CAP) {
            int nc = n - j0 < (int)GRID_CAP ? n - j0 : (int)GRID_CAP;
            qru_ptr s2 = qru_ptr_add(src, (size_t)j0 * lds);
            qru_ptr d2 = qru_ptr_add(dst, (size_t)j0 * lds);
            if ((st = ocl_copy(ctx, dt, m, nc, s2, lds, d2, ldd)) != 0)
                return st;
        }
        return 0;
    }
    karg a[] = {KINT(cm),  KINT(cn),  KMEM(src),  KLONG(so),
                KMEM(dst), KLONG(dof), KINT(clds), KINT(percol)};
    return ocl_launch(ctx, p, K_COPY_BACK, 2, g, l, NARGS(a), a);
}

int ocl_laset(qru_context *ctx, qru_dtype dt, char uplo, int m, int n,
                     double off, double dg, qru_ptr A, int lda)
{
    if (m <= 0 || n <= 0)
        return 0;
    ocl_prog *p;
    int st = ocl_get_prog(ctx, dt, &p);
    if (st)
        return st;
    cl_int cu = ocl_uplo_code(uplo), cm = m, cn = n, clda = lda;
    cl_long ao = (cl_long)A.off;
    tval t1, t2;
    karg a[] = {KINT(cu),           KINT(cm),          KINT(cn),
                ocl_targ(dt, off, &t1), ocl_targ(dt, dg, &t2), KMEM(A),
                KLONG(ao),          KINT(clda)};
    return ocl_launch2d(ctx, p, K_LASET, m, n, NARGS(a), a);
}

/* The status of a CLBlast call on ctx's queue (which marks the context as
 * one that CLBlast has cached programs of). */
int ocl_blast_status(qru_context *ctx, CLBlastStatusCode s)
{
    IMPL(ctx)->blast_used = 1;
    if (s == CLBlastSuccess)
        return 0;
    if ((int)s > -1000) /* an OpenCL error code passed through */
        return ocl_cl_status((cl_int)s);
    return qru_fail(QRU_ERR_DEVICE, "CLBlast error %d", (int)s);
}

int ocl_transpose(qru_context *ctx, qru_dtype dt, int m, int n,
                         qru_ptr A, int lda, qru_ptr B, int ldb)
{
    if (m <= 0 || n <= 0)
        return 0;
    ocl_prog *p;
    int st = ocl_get_prog(ctx, dt, &p);
    if (st)
        return st;
    ocl_impl *im = IMPL(ctx);
    if (!im->tune.transpose_local) {
        /* no local-memory staging (e.g. Mali): CLBlast's out-of-place
         * transposing copy */
        cl_command_queue q = im->q;
        CLBlastStatusCode s;
        if (qru_dtype_complex(dt)) { /* the conjugate transpose */
            cl_double2 z1 = {{1.0, 0.0}};
            cl_float2 c1 = {{1.0f, 0.0f}};
            s = dt == QRU_COMPLEX_DOUBLE
                    ? CLBlastZomatcopy(CLBlastLayoutColMajor,
                                       CLBlastTransposeConjugate, (size_t)m,
                                       (size_t)n, z1, (cl_mem)A.h, A.off,
                                       (size_t)lda, (cl_mem)B.h, B.off,
                                       (size_t)ldb, &q, NULL)
                    : CLBlastComatcopy(CLBlastLayoutColMajor,
                                       CLBlastTransposeConjugate, (size_t)m,
                                       (size_t)n, c1, (cl_mem)A.h, A.off,
                                       (size_t)lda, (cl_mem)B.h, B.off,
                                       (size_t)ldb, &q, NULL);
            return ocl_blast_status(ctx, s);
        }
        s =
            dt == QRU_DOUBLE
                ? CLBlastDomatcopy(CLBlastLayoutColMajor, CLBlastTransposeYes,
                                   (size_t)m, (size_t)n, 1.0, (cl_mem)A.h,
                                   A.off, (size_t)lda, (cl_mem)B.h, B.off,
                                   (size_t)ldb, &q, NULL)
                : CLBlastSomatcopy(CLBlastLayoutColMajor, CLBlastTransposeYes,
                                   (size_t)m, (size_t)n, 1.0f, (cl_mem)A.h,
                                   A.off, (size_t)lda, (cl_mem)B.h, B.off,
                                   (size_t)ldb, &q, NULL);
        return ocl_blast_status(ctx, s);
    }
    cl_int cm = m, cn = n, clda = lda, cldb = ldb;
    cl_long ao = (cl_long)A.off, bo = (cl_long)B.off;
    karg a[] = {KINT(cm),   KINT(cn), KMEM(A),   KLONG(ao),
                KINT(clda), KMEM(B),  KLONG(bo), KINT(cldb)};
    /* work-group TILE x ly, ly a divisor of TILE */
    size_t t = (size_t)im->tune.tile;
    size_t ly = t < 8 ? t : 8;
    while (ly > 1 && t * ly > ocl_wg_for(im, p, K_TRANSPOSE, im->max_wg))
        ly /= 2;
    if (t * ly > ocl_wg_for(im, p, K_TRANSPOSE, im->max_wg))
        return QRU_ERR_UNSUPPORTED; /* tile wider than a work-group */
    size_t l[2] = {t, ly};
    size_t g[2] = {t * min_sz(ceil_div((size_t)m, t), GRID_CAP),
                   ly * min_sz(ceil_div((size_t)n, t), GRID_CAP)};
    return ocl_launch(ctx, p, K_TRANSPOSE, 2, g, l, NARGS(a), a);
}
