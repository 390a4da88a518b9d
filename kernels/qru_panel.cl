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
 * Complex data (LAPACK's zgeqr2): the reflectors are zlarfg's
 * (qru_larfg_beta), H' = I - conj(tau) v v' is applied from the left, the
 * dots are v' x (conjugated v) and W(:, j) = -tau (y_j + W z) with
 * z = Y' y_j; sums of squares are of moduli, in the real type QRU_R.
 *
 * Work-group: 1-D, QRU_LSIZE_X <= QRU_RED items, a power of two.
 * work (device memory, element offset ok): G * (2 nb + 2) elements:
 *   [0, 2G)            (scale, sum) of each group's sum of squares (real
 *                      parts),
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
    /* red: the dot passes' sums; its first QRU_RED reals are also the
     * scales of the sums of squares (the two are never live together) */
    QRU_LOCAL_DECL(T, red, QRU_RED);
    QRU_LOCAL_DECL(QRU_R, ssq, QRU_RED);
    QRU_LOCAL_DECL(T, sh, 4);
    QRU_LOCAL QRU_R *ssc = (QRU_LOCAL QRU_R *)red;
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
    QRU_R sc = (QRU_R)0, sq = (QRU_R)1;
    for (int i = (r0 > 1 ? r0 : 1) + lid; i < r1; i += nt)
        QRU_SSQ_ADD(A[QRU_IDX(oa, i, 0, lda)], &sc, &sq);

    for (int j = 0; j < nb; ++j) {
        /* ---- this group's partial norm of A(j+1:m, j) to the others */
        ssc[lid] = sc;
        ssq[lid] = sq;
        QRU_BARRIER;
        qru_ssq_reduce(ssc, ssq, lid, nt);
        if (lid == 0) {
            pn[2 * g] = QRU_MKR(ssc[0]);
            pn[2 * g + 1] = QRU_MKR(ssq[0]);
        }
        QRU_PANEL_SYNC(G); /* B1 */

        /* ---- 1. every group: the norm, beta, tau, 1/(alpha - beta) */
        {
            QRU_R a = (QRU_R)0, q = (QRU_R)1;
            if (lid < G) {
                a = QRU_RE(QRU_LOAD_CG(pn + 2 * lid));
                q = QRU_RE(QRU_LOAD_CG(pn + 2 * lid + 1));
            }
            for (int h = lid + nt; h < G; h += nt) /* G > nt: fold in */
                qru_ssq_add(QRU_RE(QRU_LOAD_CG(pn + 2 * h)) *
                                QRU_SQRT(QRU_RE(QRU_LOAD_CG(pn + 2 * h + 1))),
                            &a, &q);
            ssc[lid] = a;
            ssq[lid] = q;
        }
        QRU_BARRIER;
        qru_ssq_reduce(ssc, ssq, lid, nt);
        if (lid == 0) {
            QRU_R xnorm = ssc[0] * QRU_SQRT(ssq[0]);
            T f = (T)0, t = (T)0, beta = (T)0;
            if (xnorm != (QRU_R)0)
                beta = qru_larfg_beta(QRU_LOAD_CG(A + QRU_IDX(oa, j, j, lda)),
                                      xnorm, &t, &f);
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
                y = QRU_MKR(1);
            } else if (i > j) {
                long p = QRU_IDX(oa, i, j, lda);
                y = QRU_MUL(A[p], f);
                A[p] = (T)0;
            }
            Y[QRU_IDX(oy, i, j, ldy)] = y;
        }
        QRU_BARRIER_GLOBAL;
        /* partial dots over rows i >= j of y_j with the targets
         * X_u = Y(:, u) (u < j, the WY accumulation: Y(:, u)' y_j) and
         * X_u = A(:, u+1) (u >= j, the larf of the trailing panel
         * columns: y_j' X_u) */
        {
            int ilo = r0 > j ? r0 : j;
            for (int ub = 0; ub < nd; ub += ny) {
                int u = ub + ly;
                T s = (T)0;
                if (u < nd && !QRU_ISZERO(t)) {
                    if (u < j)
                        for (int i = ilo + lx; i < r1; i += nx)
                            s += QRU_CMUL(Y[QRU_IDX(oy, i, u, ldy)],
                                          Y[QRU_IDX(oy, i, j, ldy)]);
                    else
                        for (int i = ilo + lx; i < r1; i += nx)
                            s += QRU_MUL(A[QRU_IDX(oa, i, u + 1, lda)],
                                         QRU_CONJ(Y[QRU_IDX(oy, i, j, ldy)]));
                }
                red[lid] = s;
                QRU_BARRIER;
                if (lx == 0 && u < nd) {
                    T a = (T)0;
                    for (int x = 0; x < nx; ++x)
                        a += red[ly * nx + x];
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
            if (u < nd && !QRU_ISZERO(t))
                for (int h = lx; h < G; h += nx)
                    s += QRU_LOAD_CG(pd + (long)h * nb + u);
            red[lid] = s;
            QRU_BARRIER;
            if (lx == 0 && u < nd) {
                T a = (T)0;
                for (int x = 0; x < nx; ++x)
                    a += red[ly * nx + x];
                dv[u] = a;
            }
            QRU_BARRIER;
        }
        QRU_BARRIER_GLOBAL;
        /* update this group's rows; partial norm of the next column */
        sc = (QRU_R)0;
        sq = (QRU_R)1;
        for (int i = r0 + lid; i < r1; i += nt) {
            if (!QRU_ISZERO(t)) {
                T y = i < j ? (T)0 : Y[QRU_IDX(oy, i, j, ldy)];
                if (i >= j) {
                    T ty = QRU_MUL(QRU_CONJ(t), y);
                    for (int k = j + 1; k < nb; ++k)
                        A[QRU_IDX(oa, i, k, lda)] -= QRU_MUL(ty, dv[k - 1]);
                }
                T s = y;
                for (int c = 0; c < j; ++c)
                    s += QRU_MUL(W[QRU_IDX(ow, i, c, ldw)], dv[c]);
                W[QRU_IDX(ow, i, j, ldw)] = QRU_MUL(-t, s);
                if (i == j)
                    A[QRU_IDX(oa, j, j, lda)] = beta;
            } else {
                W[QRU_IDX(ow, i, j, ldw)] = (T)0;
            }
            if (j + 1 < nb && i >= j + 2)
                QRU_SSQ_ADD(A[QRU_IDX(oa, i, j + 1, lda)], &sc, &sq);
        }
        if (g == 0 && lid == 0)
            tau[ot + j] = t;
    }
}

/* ---- the on-chip panel ----------------------------------------------------
 * The same contract as qru_panel_qr, for panels that fit in the local
 * memory of one work-group (the remove-columns and add-rows
 * updates factor (nb + p) x nb panels, 264 x 64 at the target shapes).
 * The panel is loaded once, the nb column steps run on local memory with
 * ONE work-group barrier each, and A, Y, W and tau are written once:
 *   - the work-group is split into teams of QRU_TEAM items (a warp on CUDA,
 *     one item on OpenCL 1.2) that reduce with QRU_TEAM_SUM, no barrier;
 *   - in step j the nb - 1 tasks are the trailing columns u > j (dot with
 *     v_j, then the rank-1 update of the column, both by the team that owns
 *     it) and the columns c < j of Y (z_c = Y(:, c)' v_j, for T); task 0,
 *     column j + 1, belongs to team 0 alone, which then
 *     forms the reflector of column j + 1 at once, so that it is ready at
 *     the barrier that ends step j;
 *   - at the end T (P = I - Y T Y', LAPACK's forward columnwise larft) is
 *     formed in local memory from the z's (qru_panel_tbuild), and
 *     W = -Y T is written.
 * The reflector of a column is larfg's; its norm is the plain sum of
 * squares where that is safe, else scaled by the largest magnitude (no
 * overflow or underflow in the squares; a NaN propagates).  Complex data
 * as qru_panel_qr (Y' the conjugate transpose, T of P = I - Y T Y' as
 * zlarft's).  wmode 1
 * writes T (nb x nb, upper) to To instead of W, for a caller that forms
 * W = -Y T with a BLAS call (CUDA).  Local memory S: m nb + nb nb + 2 nb
 * elements. */
/* The norm of a vector spread over a team, from its items' plain sums of
 * squares ss (already reduced over the team): sqrt(ss) when no square can
 * have overflowed or underflowed to matter, else the team's second pass
 * scaled by the largest magnitude (x: the item's values, n of them, only
 * those with keep[k] set count; a NaN propagates). */
#define QRU_SSQ_LO ((QRU_R)(sizeof(QRU_R) == 8 ? 1e-280 : 1e-30))
#define QRU_SSQ_HI ((QRU_R)(sizeof(QRU_R) == 8 ? 1e280 : 1e30))

/* T of the forward block reflector P = I - Y T Y' (LAPACK's larft, T upper
 * triangular, leading dimension ldt) from tau (tv) and the dots
 * Z(c, c2) = Y(:, c)' Y(:, c2) (conjugated Y(:, c) for complex data),
 * c < c2, held in the strict LOWER part of
 * the same array (at [c2 + c ldt]), by recursive doubling instead of
 * larft's column-by-column recurrence (nb dependent steps): for adjacent
 * blocks 1 = [a, a+s) and 2 = [a+s, b) with T1, T2 known,
 *     T12 = -T1 Z12 T2,
 * level s = 1, 2, 4, ... (3 barriers a level, every entry in parallel).
 * The lower part is overwritten (scratch).  All items of the work-group
 * call it. */
QRU_DEVICE void qru_panel_tbuild(int nb, QRU_LOCAL T *Tm, int ldt,
                                 QRU_LOCAL T *tv, int lid, int nt)
{
    for (int j = lid; j < nb; j += nt)
        Tm[j + (long)j * ldt] = tv[j];
    QRU_BARRIER;
    for (int s = 1; s < nb; s *= 2) {
        int tot = (nb + 2 * s - 1) / (2 * s) * s * s;
        /* X = Z12 T2 into T12's place (upper part) */
        for (int e = lid; e < tot; e += nt) {
            int pr = e / (s * s), r = e - pr * s * s;
            int a = 2 * s * pr, c0 = a + r % s, c2 = a + s + r / s;
            if (c2 >= nb)
                continue;
            T acc = (T)0;
            for (int c3 = a + s; c3 <= c2; ++c3)
                acc += QRU_MUL(Tm[c3 + (long)c0 * ldt],
                               Tm[c3 + (long)c2 * ldt]);
            Tm[c0 + (long)c2 * ldt] = acc;
        }
        QRU_BARRIER;
        /* -T1 X into Z12's place (lower part, transposed; Z12 is dead) */
        for (int e = lid; e < tot; e += nt) {
            int pr = e / (s * s), r = e - pr * s * s;
            int a = 2 * s * pr, c0 = a + r % s, c2 = a + s + r / s;
            if (c2 >= nb)
                continue;
            T acc = (T)0;
            for (int c1 = c0; c1 < a + s; ++c1)
                acc += QRU_MUL(Tm[c0 + (long)c1 * ldt],
                               Tm[c1 + (long)c2 * ldt]);
            Tm[c2 + (long)c0 * ldt] = -acc;
        }
        QRU_BARRIER;
        for (int e = lid; e < tot; e += nt) {
            int pr = e / (s * s), r = e - pr * s * s;
            int a = 2 * s * pr, c0 = a + r % s, c2 = a + s + r / s;
            if (c2 < nb)
                Tm[c0 + (long)c2 * ldt] = Tm[c2 + (long)c0 * ldt];
        }
        QRU_BARRIER;
    }
}

QRU_DEVICE void qru_panel_lds_house(int m, int j, QRU_LOCAL T *S,
                                    QRU_LOCAL T *tv, int lane)
{
    QRU_LOCAL T *col = S + (long)j * m;
    QRU_R ss = (QRU_R)0;
    for (int i = j + 1 + lane; i < m; i += QRU_TEAM)
        ss += QRU_ABS2(col[i]);
    /* the branches below hold team operations: their conditions are the
     * team's item 0's values (uniform whatever the data, NaN included) */
    ss = QRU_TEAM_UNIFORM(QRU_TEAM_SUM(ss));
    QRU_R xnorm = QRU_SQRT(ss);
    if (!(ss > QRU_SSQ_LO && ss < QRU_SSQ_HI)) {
        /* zero, tiny, huge or NaN: scaled by the largest magnitude (of
         * the parts of a complex element) */
        QRU_R amax = (QRU_R)0;
        for (int i = j + 1 + lane; i < m; i += QRU_TEAM) {
            QRU_R a = QRU_FABS(QRU_RE(col[i]));
            if (a > amax || a != a)
                amax = a;
            if (QRU_CPLX) {
                a = QRU_FABS(QRU_IM(col[i]));
                if (a > amax || a != a)
                    amax = a;
            }
        }
        amax = QRU_TEAM_UNIFORM(QRU_TEAM_MAX(amax));
        xnorm = (QRU_R)0;
        if (amax != (QRU_R)0) { /* also for a NaN */
            QRU_R sq = (QRU_R)0;
            for (int i = j + 1 + lane; i < m; i += QRU_TEAM) {
                T x = col[i] / amax;
                sq += QRU_ABS2(x);
            }
            xnorm = amax * QRU_SQRT(QRU_TEAM_SUM(sq));
        }
        xnorm = QRU_TEAM_UNIFORM(xnorm);
    }
    T t = (T)0;
    if (xnorm != (QRU_R)0) {
        T f;
        T beta = qru_larfg_beta(col[j], xnorm, &t, &f);
        for (int i = j + 1 + lane; i < m; i += QRU_TEAM)
            col[i] = QRU_MUL(col[i], f);
        QRU_TEAM_SYNC; /* every item has read col[j] */
        if (lane == 0)
            col[j] = beta;
    }
    if (lane == 0)
        tv[j] = t;
}

QRU_DEVICE void qru_panel_lds_body(int m, int nb, QRU_GLOBAL T *A, long oa,
                                   int lda, QRU_GLOBAL T *Y, long oy, int ldy,
                                   QRU_GLOBAL T *W, long ow, int ldw,
                                   QRU_GLOBAL T *tau, long ot, int wmode,
                                   QRU_GLOBAL T *To, long oto,
                                   QRU_LOCAL T *S)
{
    QRU_LOCAL T *Tm = S + (long)m * nb; /* nb x nb */
    QRU_LOCAL T *tv = Tm + (long)nb * nb; /* tau */
    int lid = QRU_LID_X, nt = QRU_LSIZE_X;
    int team = lid / QRU_TEAM, lane = lid % QRU_TEAM;
    int nteam = nt / QRU_TEAM;
    long mn = (long)m * nb;
    for (long e = lid; e < mn; e += nt) {
        int j = (int)(e / m), i = (int)(e - (long)j * m);
        S[e] = A[QRU_IDX(oa, i, j, lda)];
    }
    QRU_BARRIER;
    if (team == 0)
        qru_panel_lds_house(m, 0, S, tv, lane);
    QRU_BARRIER;
    int nd = nb - 1;
    /* team 0: task 0 only (with more than one team), the others: 1, ... */
    int qs = team == 0 ? 0 : team;
    int qstep = team == 0 ? (nteam > 1 ? nd + 1 : 1) : nteam - 1;
    for (int j = 0; j < nb; ++j) {
        T t = tv[j];
        QRU_LOCAL T *v = S + (long)j * m; /* v(j) = 1, v(i > j) stored */
        int ntr = nb - 1 - j;             /* trailing columns */
        for (int q = qs; q < nd; q += qstep) {
            if (q < ntr) {
                QRU_LOCAL T *x = S + (long)(j + 1 + q) * m;
                if (!QRU_ISZERO(t)) {
                    T s = (T)0;
                    for (int i = j + 1 + lane; i < m; i += QRU_TEAM)
                        s += QRU_CMUL(v[i], x[i]);
                    s = QRU_TEAM_SUM(s);
                    T tw = QRU_MUL(QRU_CONJ(t), x[j] + s);
                    QRU_TEAM_SYNC; /* x[j] read by every item */
                    for (int i = j + 1 + lane; i < m; i += QRU_TEAM)
                        x[i] -= QRU_MUL(tw, v[i]);
                    if (lane == 0)
                        x[j] -= tw;
                }
                if (q == 0) { /* column j + 1 is final: its reflector */
                    QRU_TEAM_SYNC;
                    qru_panel_lds_house(m, j + 1, S, tv, lane);
                }
            } else { /* z_c = Y(:, c)' v_j, c < j (Y(j, c) = S(j, c)) */
                int c = q - ntr;
                QRU_LOCAL T *y = S + (long)c * m;
                T s = (T)0;
                if (!QRU_ISZERO(t)) {
                    for (int i = j + 1 + lane; i < m; i += QRU_TEAM)
                        s += QRU_CMUL(y[i], v[i]);
                    s = QRU_TEAM_SUM(s) + QRU_CONJ(y[j]);
                }
                if (lane == 0)
                    Tm[j + (long)c * nb] = s; /* Z(c, j), lower part */
            }
        }
        QRU_BARRIER;
    }
    qru_panel_tbuild(nb, Tm, nb, tv, lid, nt);
    /* A = R with exact zeros, Y unit lower trapezoidal, W = -Y T (wmode
     * 0) or T itself to To (nb x nb, wmode 1: the caller forms W) */
    for (long e = lid; e < mn; e += nt) {
        int j = (int)(e / m), i = (int)(e - (long)j * m);
        T sv = S[e];
        A[QRU_IDX(oa, i, j, lda)] = i <= j ? sv : (T)0;
        Y[QRU_IDX(oy, i, j, ldy)] =
            i < j ? (T)0 : (i == j ? QRU_MKR(1) : sv);
        if (wmode)
            continue;
        int cm = i < j ? i : j;
        T w = (T)0;
        for (int c = 0; c <= cm; ++c)
            w += QRU_MUL(c == i ? QRU_MKR(1) : S[i + (long)c * m],
                         Tm[c + (long)j * nb]);
        W[QRU_IDX(ow, i, j, ldw)] = -w;
    }
    for (int j = lid; j < nb; j += nt)
        tau[ot + j] = tv[j];
    if (wmode)
        for (long e = lid; e < (long)nb * nb; e += nt) {
            int j = (int)(e / nb), i = (int)(e - (long)j * nb);
            To[oto + e] = i <= j ? Tm[e] : (T)0;
        }
}

/* Local-memory elements of qru_panel_lds_body for an m x nb panel. */
#define QRU_PANEL_LDS_ELEMS(m, nb)                                             \
    ((long)(m) * (nb) + (long)(nb) * (nb) + 2L * (nb))

#if defined(__OPENCL_VERSION__)
__kernel void qru_panel_qr_lds(int m, int nb, __global T *A, long oa,
                               int lda, __global T *Y, long oy, int ldy,
                               __global T *W, long ow, int ldw,
                               __global T *tau, long ot, __local T *S)
{
    qru_panel_lds_body(m, nb, A, oa, lda, Y, oy, ldy, W, ow, ldw, tau, ot, 0,
                       tau, 0, S);
}
#endif

#if QRU_TEAM > 1
/* ---- the register panel ---------------------------------------------------
 * The contract of qru_panel_qr for panels of at most QRU_TEAM * QRU_PREG_R
 * rows and QRU_PREG_NB columns (264 x 64 at the update targets), in one
 * work-group of teams (warps) with the panel in REGISTERS: column u belongs
 * to team u % teams, its rows i = lane + QRU_TEAM r to the items (lanes).
 * Local memory carries only the reflector of the step (double-buffered, so
 * that the owner of column j + 1 writes v_{j+1} while the others read v_j)
 * and T, so a step costs one barrier, one read of v per item and one team
 * reduction per owned column (the dots of a team's columns are reduced
 * together).  v_j is stored as a full column (0 above row j, 1 at row j),
 * so one plain dot serves both a trailing column (its larf) and a column
 * c < j of Y (z_j(c) = Y(:, c)' v_j, stored in the strict lower part of
 * T's array); T is formed at the end (qru_panel_tbuild).  The caller forms
 * W = -Y T from To (CUDA: cuBLAS trmm).  Only where teams have more than
 * one item (CUDA warps; OpenCL 1.2 has no sub-group reductions).  Real
 * data only (QRU_PREG_FITS): the arrays are sized for an 8-byte T (T's
 * array: 32 KiB of static shared memory), so complex double does not fit,
 * and complex float takes 168 registers an item (sm_90), more than a
 * block of 512 items may have (64 K). */
#define QRU_PREG_R 9   /* rows per item */
#define QRU_PREG_C 4   /* columns per team */
#define QRU_PREG_NB 64 /* columns (T's array is QRU_PREG_NB^2) */
#define QRU_PREG_LEN (QRU_TEAM * QRU_PREG_R)
#define QRU_PREG_FITS(T) (sizeof(T) <= 8 && !QRU_CPLX)

/* The reflector of the owned column c (x: the item's rows of it): x :=
 * [R(0:c, c); v], v_c to vout as a full column, tau to tv[c] and
 * returned (in every item). */
QRU_DEVICE T qru_preg_house(int m, int c, T *x, QRU_LOCAL T *vout,
                               QRU_LOCAL T *tv, int lane)
{
    QRU_R ss = (QRU_R)0;
    T al = (T)0;
#pragma unroll
    for (int r = 0; r < QRU_PREG_R; ++r) {
        int i = lane + QRU_TEAM * r;
        if (i > c && i < m)
            ss += QRU_ABS2(x[r]);
        if (i == c)
            al = x[r];
    }
    al = QRU_TEAM_BCAST(al, c % QRU_TEAM); /* item c % TEAM holds it */
    /* the branches below hold team operations: their conditions are the
     * team's item 0's values (uniform whatever the data, NaN included) */
    ss = QRU_TEAM_UNIFORM(QRU_TEAM_SUM(ss));
    QRU_R xnorm = QRU_SQRT(ss);
    int safe = ss > QRU_SSQ_LO && ss < QRU_SSQ_HI;
    if (!safe) {
        QRU_R amax = (QRU_R)0;
#pragma unroll
        for (int r = 0; r < QRU_PREG_R; ++r) {
            int i = lane + QRU_TEAM * r;
            QRU_R a = QRU_FABS(QRU_RE(x[r]));
            if (QRU_CPLX && QRU_FABS(QRU_IM(x[r])) > a)
                a = QRU_FABS(QRU_IM(x[r]));
            if (i > c && i < m && (a > amax || a != a))
                amax = a;
        }
        amax = QRU_TEAM_UNIFORM(QRU_TEAM_MAX(amax));
        xnorm = (QRU_R)0;
        if (amax != (QRU_R)0) {
            QRU_R sq = (QRU_R)0;
#pragma unroll
            for (int r = 0; r < QRU_PREG_R; ++r) {
                int i = lane + QRU_TEAM * r;
                T y = x[r] / amax;
                if (i > c && i < m)
                    sq += QRU_ABS2(y);
            }
            xnorm = amax * QRU_SQRT(QRU_TEAM_SUM(sq));
        }
        xnorm = QRU_TEAM_UNIFORM(xnorm);
    }
    T t = (T)0;
    if (xnorm != (QRU_R)0) {
        T f, beta;
        QRU_R al2 = QRU_ABS2(al);
        if (safe && al2 < QRU_SSQ_HI) { /* no scaling needed */
            QRU_R b = QRU_SQRT(al2 + ss);
            if (QRU_RE(al) >= (QRU_R)0)
                b = -b;
            beta = QRU_MKR(b);
            t = (beta - al) / b;
            f = QRU_INV(al - beta);
        } else {
            beta = qru_larfg_beta(al, xnorm, &t, &f);
        }
#pragma unroll
        for (int r = 0; r < QRU_PREG_R; ++r) {
            int i = lane + QRU_TEAM * r;
            if (i > c)
                x[r] = QRU_MUL(x[r], f);
            else if (i == c)
                x[r] = beta;
        }
    }
#pragma unroll
    for (int r = 0; r < QRU_PREG_R; ++r) {
        int i = lane + QRU_TEAM * r;
        vout[i] = i > c ? x[r] : (i == c ? QRU_MKR(1) : (T)0);
    }
    if (lane == 0)
        tv[c] = t;
    return t;
}

QRU_KERNEL void qru_panel_qr_reg(int m, int nb, QRU_GLOBAL T *A, long oa,
                                 int lda, QRU_GLOBAL T *Y, long oy, int ldy,
                                 QRU_GLOBAL T *tau, long ot,
                                 QRU_GLOBAL T *To, long oto)
{
    QRU_LOCAL_DECL(T, vs, 2 * QRU_PREG_LEN);
    QRU_LOCAL_DECL(T, Tm, QRU_PREG_NB * QRU_PREG_NB);
    QRU_LOCAL_DECL(T, tv, QRU_PREG_NB);
    int lid = QRU_LID_X;
    int team = lid / QRU_TEAM, lane = lid % QRU_TEAM;
    int nteam = QRU_LSIZE_X / QRU_TEAM;
    T a[QRU_PREG_C][QRU_PREG_R];
#pragma unroll
    for (int s = 0; s < QRU_PREG_C; ++s) {
        int u = team + s * nteam;
#pragma unroll
        for (int r = 0; r < QRU_PREG_R; ++r) {
            int i = lane + QRU_TEAM * r;
            a[s][r] = (u < nb && i < m) ? A[QRU_IDX(oa, i, u, lda)] : (T)0;
        }
    }
    if (team == 0)
        qru_preg_house(m, 0, a[0], vs, tv, lane);
    QRU_BARRIER;
    for (int j = 0; j < nb; ++j) {
        QRU_LOCAL T *vb = vs + (j & 1) * QRU_PREG_LEN;
        T t = tv[j];
        T v[QRU_PREG_R];
#pragma unroll
        for (int r = 0; r < QRU_PREG_R; ++r)
            v[r] = vb[lane + QRU_TEAM * r];
        T d[QRU_PREG_C];
#pragma unroll
        for (int s = 0; s < QRU_PREG_C; ++s) {
            d[s] = (T)0;
#pragma unroll
            for (int r = 0; r < QRU_PREG_R; ++r)
                d[s] += QRU_MUL(a[s][r], QRU_CONJ(v[r]));
        }
#pragma unroll
        for (int s = 0; s < QRU_PREG_C; ++s)
            d[s] = QRU_TEAM_SUM(d[s]);
#pragma unroll
        for (int s = 0; s < QRU_PREG_C; ++s) {
            int u = team + s * nteam;
            if (u > j && u < nb && !QRU_ISZERO(t)) { /* larf of column u */
                T tw = QRU_MUL(QRU_CONJ(t), d[s]);
#pragma unroll
                for (int r = 0; r < QRU_PREG_R; ++r)
                    a[s][r] -= QRU_MUL(tw, v[r]);
            } else if (u < j && lane == 0) { /* z_j(u) = conj(v_j' y_u) */
                Tm[j + u * QRU_PREG_NB] =
                    !QRU_ISZERO(t) ? QRU_CONJ(d[s]) : (T)0;
            }
        }
        /* the owner of column j + 1: its reflector, into the other buffer */
        if (j + 1 < nb && team == (j + 1) % nteam) {
            int s1 = (j + 1) / nteam;
#pragma unroll
            for (int s = 0; s < QRU_PREG_C; ++s)
                if (s == s1)
                    qru_preg_house(m, j + 1, a[s],
                                   vs + ((j + 1) & 1) * QRU_PREG_LEN, tv,
                                   lane);
        }
        QRU_BARRIER;
    }
    qru_panel_tbuild(nb, Tm, QRU_PREG_NB, tv, lid, QRU_LSIZE_X);
    /* A = R with exact zeros, Y unit lower trapezoidal, tau, T */
#pragma unroll
    for (int s = 0; s < QRU_PREG_C; ++s) {
        int u = team + s * nteam;
        if (u >= nb)
            continue;
#pragma unroll
        for (int r = 0; r < QRU_PREG_R; ++r) {
            int i = lane + QRU_TEAM * r;
            if (i < m) {
                T x = a[s][r];
                A[QRU_IDX(oa, i, u, lda)] = i <= u ? x : (T)0;
                Y[QRU_IDX(oy, i, u, ldy)] =
                    i < u ? (T)0 : (i == u ? QRU_MKR(1) : x);
            }
        }
    }
    for (int j = lid; j < nb; j += QRU_LSIZE_X)
        tau[ot + j] = tv[j];
    for (int e = lid; e < nb * nb; e += QRU_LSIZE_X) {
        int j = e / nb, i = e - j * nb;
        To[oto + e] = i <= j ? Tm[i + j * QRU_PREG_NB] : (T)0;
    }
}
#endif /* QRU_TEAM > 1 */

#endif /* QRU_PANEL_CL */
