/*
 * The fused Householder panel (src/qru_internal.h, "fused panels"): the QR
 * of an m x nb panel, its reflectors Y and the WY factor W in ONE kernel
 * launch, instead of the house + larf + wy_append launches per column of
 * kernels/qru_base.cl.  Same conventions as kernels/qru_base.cl (whose
 * helpers qru_ssq_add / qru_ssq_reduce it uses; it comes after it in the
 * OpenCL program and is included after it by cuda/cuda_panel.cu).
 *
 * Work distribution: G work-groups (G = the number of groups launched),
 * group g owns the rows [g*chunk, min(m, (g+1)*chunk)) of A, Y and W and
 * is the only one that writes them.  Per column j:
 *   1. every group reduces the G partial scaled sums of squares of
 *      A(j+1:m, j) (written at the end of step j-1) and forms beta, tau
 *      and 1/(alpha - beta) itself (identical arithmetic in every group, so
 *      every group has bit-identical values and no broadcast is needed);
 *   2. each group scales its rows of column j into Y(:, j), clears them in
 *      A, and writes its partial dot products of y_j with the trailing
 *      panel columns A(j:m, j+1:nb) (the larf of the column) and with
 *      Y(j:m, 0:j) (the z = Y' y of the WY accumulation);
 *   3. after a grid barrier every group reduces the partial dots and
 *      updates its rows: A(i, j+1:nb) -= tau y_i w', W(i, j) = -tau (y_i +
 *      W(i, 0:j) z), R(j, j) = beta, and the partial sum of squares of the
 *      next column.
 * So a step costs two grid barriers.  With ONE group (OpenCL, and CUDA for
 * short panels) a grid barrier is a work-group barrier; with more groups
 * (CUDA only: a cooperative launch, all groups resident) it is
 * QRU_GRID_SYNC, which the including .cu file defines.  Data that other
 * groups wrote (the partial sums, alpha = A(j, j)) is read with
 * QRU_LOAD_CG, which bypasses the non-coherent L1 cache on CUDA.
 *
 * Work-group: 1-D, QRU_LSIZE_X <= QRU_RED items, a power of two.
 * work (device memory, element offset ok): G * (2 nb + 2) elements:
 *   [0, 2G)            (scale, sum) of each group's sum of squares,
 *   [2G, 2G + G nb)    each group's partial dot products (nb - 1 used),
 *   [2G + G nb, ...)   each group's reduced dot products (private).
 */
#ifndef QRU_PANEL_CL
#define QRU_PANEL_CL

#ifndef QRU_IDX /* as in qru_base.cl */
#define QRU_IDX(o, i, j, ld) ((o) + (long)(i) + (long)(j) * (long)(ld))
#endif

#ifndef QRU_LOAD_CG
#define QRU_LOAD_CG(p) (*(p))
#endif
#ifndef QRU_GRID_SYNC
#define QRU_GRID_SYNC QRU_BARRIER_GLOBAL
#endif
/* barrier over all groups of the launch (uniform: G is the same in all) */
#define QRU_PANEL_SYNC(G)                                                      \
    do {                                                                       \
        if ((G) > 1) {                                                         \
            QRU_GRID_SYNC;                                                     \
        } else {                                                               \
            QRU_BARRIER_GLOBAL;                                                \
        }                                                                      \
    } while (0)

QRU_KERNEL void qru_panel_qr(int m, int nb, QRU_GLOBAL T *A, long oa,
                             int lda, QRU_GLOBAL T *Y, long oy, int ldy,
                             QRU_GLOBAL T *W, long ow, int ldw,
                             QRU_GLOBAL T *tau, long ot, QRU_GLOBAL T *wk,
                             long ok, int chunk)
{
    QRU_LOCAL_DECL(T, ssc, QRU_RED);
    QRU_LOCAL_DECL(T, ssq, QRU_RED);
    QRU_LOCAL_DECL(T, sh, 4);
    int lid = QRU_LID_X, nt = QRU_LSIZE_X;
    int g = QRU_GROUP_X, G = QRU_NGROUPS_X;
    int r0 = g * chunk;
    int r1 = r0 + chunk < m ? r0 + chunk : m;
    if (r0 > m)
        r0 = m;
    QRU_GLOBAL T *pn = wk + ok;                  /* G x 2 */
    QRU_GLOBAL T *pd = pn + 2 * (long)G;         /* G x nb */
    QRU_GLOBAL T *dv = pd + (long)G * nb + (long)g * nb; /* this group's */
    /* the dot passes: nx items along rows (or groups) x ny targets */
    int ny = nt >= 64 ? 8 : 1;
    int nx = nt / ny;
    int lx = lid % nx, ly = lid / nx;
    int nd = nb - 1; /* dot targets per step */

    /* partial sum of squares of A(1:m, 0) over this group's rows */
    T sc = (T)0, sq = (T)1;
    for (int i = (r0 > 1 ? r0 : 1) + lid; i < r1; i += nt)
        qru_ssq_add(QRU_FABS(A[QRU_IDX(oa, i, 0, lda)]), &sc, &sq);

    for (int j = 0; j < nb; ++j) {
        /* ---- this group's partial norm of A(j+1:m, j) to the others */
        ssc[lid] = sc;
        ssq[lid] = sq;
        QRU_BARRIER;
        qru_ssq_reduce(ssc, ssq, lid, nt);
        if (lid == 0) {
            pn[2 * g] = ssc[0];
            pn[2 * g + 1] = ssq[0];
        }
        QRU_PANEL_SYNC(G); /* B1 */

        /* ---- 1. every group: the norm, beta, tau, 1/(alpha - beta) */
        {
            T a = (T)0, q = (T)1;
            if (lid < G) {
                a = QRU_LOAD_CG(pn + 2 * lid);
                q = QRU_LOAD_CG(pn + 2 * lid + 1);
            }
            for (int h = lid + nt; h < G; h += nt) /* G > nt: fold in */
                qru_ssq_add(QRU_LOAD_CG(pn + 2 * h) *
                                QRU_SQRT(QRU_LOAD_CG(pn + 2 * h + 1)),
                            &a, &q);
            ssc[lid] = a;
            ssq[lid] = q;
        }
        QRU_BARRIER;
        qru_ssq_reduce(ssc, ssq, lid, nt);
        if (lid == 0) {
            T xnorm = ssc[0] * QRU_SQRT(ssq[0]);
            T f = (T)0, t = (T)0, beta = (T)0;
            if (xnorm != (T)0) {
                T al = QRU_LOAD_CG(A + QRU_IDX(oa, j, j, lda));
                T s = QRU_FABS(al) > xnorm ? QRU_FABS(al) : xnorm;
                T ra = al / s, rx = xnorm / s;
                beta = s * QRU_SQRT(ra * ra + rx * rx);
                if (al >= (T)0)
                    beta = -beta;
                t = (beta - al) / beta;
                f = (T)1 / (al - beta);
            }
            sh[0] = t;
            sh[1] = f;
            sh[2] = beta;
        }
        QRU_BARRIER;
        T t = sh[0], f = sh[1], beta = sh[2];

        /* ---- 2. Y(:, j) on this group's rows; A(j+1:m, j) = 0 */
        for (int i = r0 + lid; i < r1; i += nt) {
            T y = (T)0;
            if (i == j) {
                y = (T)1;
            } else if (i > j) {
                long p = QRU_IDX(oa, i, j, lda);
                y = A[p] * f;
                A[p] = (T)0;
            }
            Y[QRU_IDX(oy, i, j, ldy)] = y;
        }
        QRU_BARRIER_GLOBAL;
        /* partial dots over rows i >= j of y_j with the targets
         * X_u = Y(:, u) (u < j, the WY accumulation) and X_u = A(:, u+1)
         * (u >= j, the larf of the trailing panel columns) */
        {
            int ilo = r0 > j ? r0 : j;
            for (int ub = 0; ub < nd; ub += ny) {
                int u = ub + ly;
                T s = (T)0;
                if (u < nd && t != (T)0) {
                    if (u < j)
                        for (int i = ilo + lx; i < r1; i += nx)
                            s += Y[QRU_IDX(oy, i, u, ldy)] *
                                 Y[QRU_IDX(oy, i, j, ldy)];
                    else
                        for (int i = ilo + lx; i < r1; i += nx)
                            s += A[QRU_IDX(oa, i, u + 1, lda)] *
                                 Y[QRU_IDX(oy, i, j, ldy)];
                }
                ssc[lid] = s;
                QRU_BARRIER;
                if (lx == 0 && u < nd) {
                    T a = (T)0;
                    for (int x = 0; x < nx; ++x)
                        a += ssc[ly * nx + x];
                    pd[(long)g * nb + u] = a;
                }
                QRU_BARRIER;
            }
        }
        QRU_PANEL_SYNC(G); /* B2 */

        /* ---- 3. reduce the dots over the groups into dv */
        for (int ub = 0; ub < nd; ub += ny) {
            int u = ub + ly;
            T s = (T)0;
            if (u < nd && t != (T)0)
                for (int h = lx; h < G; h += nx)
                    s += QRU_LOAD_CG(pd + (long)h * nb + u);
            ssc[lid] = s;
            QRU_BARRIER;
            if (lx == 0 && u < nd) {
                T a = (T)0;
                for (int x = 0; x < nx; ++x)
                    a += ssc[ly * nx + x];
                dv[u] = a;
            }
            QRU_BARRIER;
        }
        QRU_BARRIER_GLOBAL;
        /* update this group's rows; partial norm of the next column */
        sc = (T)0;
        sq = (T)1;
        for (int i = r0 + lid; i < r1; i += nt) {
            if (t != (T)0) {
                T y = i < j ? (T)0 : Y[QRU_IDX(oy, i, j, ldy)];
                if (i >= j) {
                    T ty = t * y;
                    for (int k = j + 1; k < nb; ++k)
                        A[QRU_IDX(oa, i, k, lda)] -= ty * dv[k - 1];
                }
                T s = y;
                for (int c = 0; c < j; ++c)
                    s += W[QRU_IDX(ow, i, c, ldw)] * dv[c];
                W[QRU_IDX(ow, i, j, ldw)] = -t * s;
                if (i == j)
                    A[QRU_IDX(oa, j, j, lda)] = beta;
            } else {
                W[QRU_IDX(ow, i, j, ldw)] = (T)0;
            }
            if (j + 1 < nb && i >= j + 2)
                qru_ssq_add(QRU_FABS(A[QRU_IDX(oa, i, j + 1, lda)]), &sc,
                            &sq);
        }
        if (g == 0 && lid == 0)
            tau[ot + j] = t;
    }
}

#endif /* QRU_PANEL_CL */
