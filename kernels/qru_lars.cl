/*
 * Device kernels of lars_gram_step (src/qru_ops.h): a step of the Gram
 * form of LARS (src/solvers/lars.c) decided on the device, after the
 * bordering and the products z = W (W' S) of kernels/qru_gram.cl:
 *   qru_lars_rows    the grid on the m rows of Gs: work-groups of
 *                    QRU_LARSK_ROWS rows (x) by up to QRU_LARSK_SLICES
 *                    slices of the hw slots (y); every group forms sw =
 *                    S' z itself (the same order in each), its rows'
 *                    corr = Gs z, the rounded correlations c of the
 *                    inactive ones and its two minima of gamma's
 *                    candidates; work-group 0 writes the status, the
 *                    entering column's position and slot;
 *   qru_lars_update  work-groups of QRU_LARS_PICK rows (1-D): every group
 *                    reduces the minima (gamma) and the crossing slots
 *                    itself (the same order in each), then its rows' new
 *                    coefficients and correlations, and its block's pick
 *                    (the first inactive column in the pick's order);
 *                    also the modes START and LEAVE (their bookkeeping,
 *                    then the pick).
 * The state ls is one array L (the layout of qru_lars_ws_of,
 * qru_internal.h, whose offsets the host passes); the record's indices
 * and the statuses are those of qru_internal.h (checked where the CUDA
 * backend includes this file).  The CPU version (src/cpu/cpu_kernels.inc)
 * is the reference.  Every sum and reduction runs in an order fixed by
 * the work-group shape (a run repeats bit for bit).
 */
#ifndef QRU_LARS_CL
#define QRU_LARS_CL

#define QRU_LARSK_ROWS 32   /* QRU_LARS_ROWS of qru_internal.h */
#define QRU_LARSK_SLICES 8  /* the most slices of qru_lars_rows */
#define QRU_LARSK_PICK 256  /* QRU_LARS_PICK: the rows of an update group */
/* the record (QRU_LARS_ST_* of qru_internal.h) */
#define QRU_LARSK_STATUS 0
#define QRU_LARSK_GAMMA 1
#define QRU_LARSK_ND 2
#define QRU_LARSK_QD 3
#define QRU_LARSK_SW 4
#define QRU_LARSK_AA 5
#define QRU_LARSK_D 6
/* the statuses, modes and flags */
#define QRU_LARSK_OK 0
#define QRU_LARSK_DEGENERATE 1
#define QRU_LARSK_NODIR 2
#define QRU_LARSK_START 0
#define QRU_LARSK_STEP 1
#define QRU_LARSK_LEAVE 2
#define QRU_LARSK_LASSO 1
#define QRU_LARSK_POSITIVE 2

/* The pick's order: (a, pa) before (b, pb) (a total order: a NaN key
 * after any other, then the larger key, then the lower position:
 * qru_key_order of kernels/qru_kdefs.h; the host's copy is
 * qru_internal.h's qru_lars_pick_before). */
QRU_DEVICE int qru_lars_before(T a, T pa, T b, T pb)
{
    int o = qru_key_order(a, b, 0);
    return o >= 0 ? o : pa < pb;
}

/* tmp(p) = -coef / (w + tiny) (one expression wherever it is compared) */
QRU_DEVICE T qru_lars_cross(T coef, T w, T tiny)
{
    return -coef / (w + tiny);
}

/* The entering column's pivot as the solver judges it: 0 where the
 * bordering flagged it, else |d|. */
QRU_DEVICE T qru_lars_pivot(QRU_GLOBAL const T *out, long oo, int m)
{
    return out[oo + m + 1] != (T)0 ? (T)0 : QRU_FABS(out[oo + m]);
}

QRU_KERNEL void qru_lars_rows(int m, int hw, int flags, int t, int q, int ci,
                              int u, int na, T piv, T C, T big, T dec,
                              T tiny, QRU_GLOBAL const T *Gs, long ogs,
                              QRU_GLOBAL const T *S, long os,
                              QRU_GLOBAL T *out, long oo, QRU_GLOBAL T *L,
                              long ocov, long oc, long opos, long osof,
                              long ocof, long orec, long opart)
{
    QRU_LOCAL_DECL(T, red, QRU_LARSK_ROWS * QRU_LARSK_SLICES);
    QRU_LOCAL_DECL(T, g1s, QRU_LARSK_ROWS);
    QRU_LOCAL_DECL(T, g2s, QRU_LARSK_ROWS);
    int lx = QRU_LID_X, ly = QRU_LID_Y, ns = QRU_LSIZE_Y, g = QRU_GROUP_X;
    int f = ly * QRU_LARSK_ROWS + lx, nt = QRU_LARSK_ROWS * ns;
    int r = g * QRU_LARSK_ROWS + lx;
    int lead = g == 0 && f == 0;
    long oz = oo + m + 2;
    T d = t >= 0 ? qru_lars_pivot(out, oo, m) : (T)0;
    if (lead && t >= 0) {
        L[opos + u] = (T)ci;
        L[opos + t] = (T)(na - 1);
        L[orec + QRU_LARSK_D] = d;
    }
    if (t >= 0 && d < piv) { /* degenerate: uniform over the grid */
        if (lead) {
            L[orec + QRU_LARSK_STATUS] = (T)QRU_LARSK_DEGENERATE;
            L[ocov + t] = (T)0;
        }
        return;
    }
    /* sw = S' z: the same order in every group */
    T sw = (T)0;
    for (int c = f; c < hw; c += nt)
        sw += S[os + c] * out[oz + c];
    red[f] = sw;
    QRU_BARRIER;
    qru_row_sum(red, f, 0, nt);
    sw = red[0];
    T AA = (T)1 / QRU_SQRT(sw);
    if (!isfinite(AA) || !(sw > (T)0)) { /* uniform */
        if (lead) {
            L[orec + QRU_LARSK_STATUS] = (T)QRU_LARSK_NODIR;
            L[orec + QRU_LARSK_SW] = sw;
            L[orec + QRU_LARSK_AA] = AA;
        }
        return;
    }
    QRU_BARRIER; /* (red[0] read by all) */
    T s = (T)0;
    if (r < m)
        for (int c = ly; c < hw; c += ns)
            s += Gs[ogs + r + (long)c * m] * out[oz + c];
    red[lx * ns + ly] = s; /* the slices of a row adjacent */
    QRU_BARRIER;
    qru_row_sum(red, ly, lx, ns);
    if (ly == 0) {
        T g1 = big, g2 = big;
        if (r < m) {
            T cr = red[lx * ns];
            out[oo + r] = cr;
            if (r != t && L[osof + r] < (T)0) {
                T cj = rint(AA * cr * dec) / dec, cv = L[ocov + r];
                L[oc + r] = cj;
                T a = (C - cv) / (AA - cj + tiny);
                if (a > (T)0 && a < g1)
                    g1 = a;
                T b = (C + cv) / (AA + cj + tiny);
                if (!(flags & QRU_LARSK_POSITIVE) && b > (T)0 && b < g2)
                    g2 = b;
            }
        }
        g1s[lx] = g1;
        g2s[lx] = g2;
    }
    QRU_BARRIER;
    for (int h = QRU_LARSK_ROWS / 2; h > 0; h >>= 1) {
        if (ly == 0 && lx < h) {
            if (g1s[lx + h] < g1s[lx])
                g1s[lx] = g1s[lx + h];
            if (g2s[lx + h] < g2s[lx])
                g2s[lx] = g2s[lx + h];
        }
        QRU_BARRIER;
    }
    if (f == 0) {
        L[opart + 2 * (long)g] = g1s[0];
        L[opart + 2 * (long)g + 1] = g2s[0];
    }
    if (lead) {
        L[orec + QRU_LARSK_STATUS] = (T)QRU_LARSK_OK;
        L[orec + QRU_LARSK_SW] = sw;
        L[orec + QRU_LARSK_AA] = AA;
        if (t >= 0)
            L[ocof + q] = (T)t;
    }
}

/* The update and the pick (nt items a group, a power of two up to
 * QRU_LARSK_PICK; group b takes the rows of block b). */
QRU_KERNEL void qru_lars_update(int mode, int m, int kmax, int hw, int ngr,
                                int flags, int it, int t, int q, int ci,
                                int na, T piv, T C, T big, T tiny,
                                QRU_GLOBAL const T *out, long oo,
                                QRU_GLOBAL T *L, long ocov, long oc,
                                long opos, long osof, long ocof, long odrop,
                                long orec, long opick, long opart,
                                QRU_GLOBAL T *P, long op)
{
    QRU_LOCAL_DECL(T, ra, QRU_LARSK_PICK);
    QRU_LOCAL_DECL(T, rb, QRU_LARSK_PICK);
    QRU_LOCAL_DECL(T, rc, QRU_LARSK_PICK);
    QRU_LOCAL_DECL(T, rd, QRU_LARSK_PICK);
    int lid = QRU_LID_X, nt = QRU_LSIZE_X, b = QRU_GROUP_X;
    int r0 = b * QRU_LARSK_PICK, r1 = r0 + QRU_LARSK_PICK < m
                                          ? r0 + QRU_LARSK_PICK
                                          : m;
    int lasso = (flags & QRU_LARSK_LASSO) != 0,
        positive = (flags & QRU_LARSK_POSITIVE) != 0;
    long oz = oo + m + 2, pp = op + (long)it * m, pn = pp + m;
    int live = 0;  /* a step taken: the update */
    int cross = 0; /* zpos < gamma: slots cross zero first */
    T AA = (T)0, gamma = (T)0, zpos = big;
    if (mode == QRU_LARSK_STEP) {
        int degen = t >= 0 && qru_lars_pivot(out, oo, m) < piv;
        live = !degen &&
               L[orec + QRU_LARSK_STATUS] == (T)QRU_LARSK_OK;
    }
    if (live) {
        AA = L[orec + QRU_LARSK_AA];
        /* gamma from the rows' minima */
        T g1 = big, g2 = big;
        for (int g = lid; g < ngr; g += nt) {
            T a = L[opart + 2 * (long)g], c = L[opart + 2 * (long)g + 1];
            if (a < g1)
                g1 = a;
            if (c < g2)
                g2 = c;
        }
        ra[lid] = g1;
        rb[lid] = g2;
        /* zpos over the active slots */
        T zl = big;
        for (int p = lid; p < hw; p += nt) {
            int j = (int)L[ocof + p];
            if (j >= 0) {
                T tp = qru_lars_cross(P[pp + j], out[oz + p] * AA, tiny);
                if (tp > (T)0 && tp < zl)
                    zl = tp;
            }
        }
        rc[lid] = zl;
        QRU_BARRIER;
        for (int h = nt / 2; h > 0; h >>= 1) {
            if (lid < h) {
                if (ra[lid + h] < ra[lid])
                    ra[lid] = ra[lid + h];
                if (rb[lid + h] < rb[lid])
                    rb[lid] = rb[lid + h];
                if (rc[lid + h] < rc[lid])
                    rc[lid] = rc[lid + h];
            }
            QRU_BARRIER;
        }
        gamma = ra[0] < rb[0] ? ra[0] : rb[0];
        if (C / AA < gamma)
            gamma = C / AA;
        zpos = rc[0];
        cross = zpos < gamma;
        QRU_BARRIER; /* (ra, rb, rc read by all) */
        /* the crossing slots: their count and the lowest */
        T cnt = (T)0, low = (T)kmax;
        for (int p = lid; p < hw; p += nt) {
            int j = (int)L[ocof + p], hit = 0;
            if (cross && j >= 0)
                hit = qru_lars_cross(P[pp + j], out[oz + p] * AA, tiny) ==
                      zpos;
            if (b == 0)
                L[odrop + p] = (T)hit;
            if (hit) {
                cnt += (T)1;
                if ((T)p < low)
                    low = (T)p;
            }
        }
        ra[lid] = cnt;
        rb[lid] = low;
        QRU_BARRIER;
        for (int h = nt / 2; h > 0; h >>= 1) {
            if (lid < h) {
                ra[lid] += ra[lid + h];
                if (rb[lid + h] < rb[lid])
                    rb[lid] = rb[lid + h];
            }
            QRU_BARRIER;
        }
        int nd = (int)ra[0];
        if (b == 0 && lid == 0) {
            L[orec + QRU_LARSK_ND] = (T)nd;
            L[orec + QRU_LARSK_QD] = nd > 0 ? rb[0] : (T)-1;
        }
        if (nd > 0 && lasso)
            gamma = zpos;
        if (b == 0 && lid == 0)
            L[orec + QRU_LARSK_GAMMA] = gamma;
        QRU_BARRIER; /* (ra, rb read by all) */
    }
    if (mode == QRU_LARSK_START && b == 0)
        for (int p = lid; p < kmax; p += nt) {
            L[ocof + p] = (T)-1;
            L[odrop + p] = (T)0;
        }
    if (mode == QRU_LARSK_LEAVE && b == 0 && lid == 0)
        L[ocof + q] = (T)-1;
    /* the rows: the bookkeeping or the update, then the block's pick */
    T kv = (T)-1, kc = (T)-1, kp = (T)-1, kj = (T)-1;
    for (int r = r0 + lid; r < r1; r += nt) {
        T sof = L[osof + r];
        if (mode == QRU_LARSK_START) {
            L[opos + r] = (T)r;
            L[osof + r] = sof = (T)-1;
        } else if (mode == QRU_LARSK_LEAVE) {
            if (r == t) {
                L[opos + r] = (T)na;
                L[osof + r] = sof = (T)-1;
            } else if (sof >= (T)0 && L[opos + r] > (T)ci) {
                L[opos + r] -= (T)1;
            }
        } else if (live) {
            int p = r == t ? q : (int)sof;
            if (p >= 0) {
                T w = out[oz + p] * AA, cf = P[pp + r];
                int hit = lasso && cross &&
                          qru_lars_cross(cf, w, tiny) == zpos;
                T nx = hit ? (T)0 : cf + gamma * w;
                /* positive: a coefficient that rounding takes below 0 at
                 * the step's end (a crossing tied with gamma) stays 0 */
                P[pn + r] = positive && nx < (T)0 ? (T)0 : nx;
                if (r == t)
                    L[osof + r] = sof = (T)q;
            } else {
                P[pn + r] = (T)0;
                L[ocov + r] -= gamma * L[oc + r];
            }
        }
        if (sof < (T)0) {
            T cv = L[ocov + r], key = positive ? cv : QRU_FABS(cv),
              ps = L[opos + r];
            if (kj < (T)0 || qru_lars_before(key, ps, kv, kp)) {
                kv = key;
                kc = cv;
                kp = ps;
                kj = (T)r;
            }
        }
    }
    ra[lid] = kv;
    rb[lid] = kc;
    rc[lid] = kp;
    rd[lid] = kj;
    QRU_BARRIER;
    for (int h = nt / 2; h > 0; h >>= 1) {
        if (lid < h && rd[lid + h] >= (T)0 &&
            (rd[lid] < (T)0 ||
             qru_lars_before(ra[lid + h], rc[lid + h], ra[lid], rc[lid]))) {
            ra[lid] = ra[lid + h];
            rb[lid] = rb[lid + h];
            rc[lid] = rc[lid + h];
            rd[lid] = rd[lid + h];
        }
        QRU_BARRIER;
    }
    if (lid == 0) {
        L[opick + 3 * (long)b] = rb[0];
        L[opick + 3 * (long)b + 1] = rc[0];
        L[opick + 3 * (long)b + 2] = rd[0];
    }
}

#endif /* QRU_LARS_CL */
