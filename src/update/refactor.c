/*
 * The refactorisation strategy of the QR updates: rebuild A = Q(:,1:m)
 * R(1:m,:) and b = Q d (thin form: Q1 d + E) with GEMMs (only the rows /
 * columns that A1 keeps), apply the change (insert U / e, drop rows /
 * columns, or add U V'), and factor A1 as qru_lsq_create does in f's form: qru_qr_full
 * (R, Q, Q' b) or qru_geqr_thin (Q1, R, Q1' b, the residuals), each the
 * backend's vendor QR where qru_qr_use_vendor says so.  The
 * Q-less form has nothing to rebuild A from and always updates.
 * Written once for both precisions against the backend table.
 *
 * The refactorisation is all-or-nothing: A1, b1, Q1 and R1 are computed in
 * the context's workspace and copied into the factorisation's buffers
 * (capacity reserved first, which keeps the contents) only when everything
 * before succeeded, the add-columns rank check included.  The thin form's
 * row removal first runs the update's own rank rule and downdate
 * condition (qru_upd_thin_rows_judge), so that both paths refuse the same
 * removals with the same status and report the same condition.
 */
#include <stdlib.h>
#include <string.h>

#include "qru_flops.h"
#include "update.h"

/* Sizes of the updated problem. */
static void new_size(const qru_lsq *f, int op, int p, int *n1, int *m1)
{
    *n1 = f->n;
    *m1 = f->m;
    if (op == QRU_UPD_OP_ADD_COLS)
        *m1 += p;
    else if (op == QRU_UPD_OP_REMOVE_COLS)
        *m1 -= p;
    else if (op == QRU_UPD_OP_ADD_ROWS)
        *n1 += p;
    else if (op == QRU_UPD_OP_REMOVE_ROWS)
        *n1 -= p;
}

static int refactor_nb(const qru_lsq *f, const qru_context *ctx, int m1)
{
    int nb = f->nb ? f->nb : qru_ctx_tuning(ctx, f->dtype)->qr_nb;
    if (nb > m1)
        nb = m1;
    return nb < 1 ? 1 : nb;
}


/* The refactorisation path (f holds Q or Q1; arguments already
 * checked). */
int qru_upd_refactor(qru_context *ctx, qru_lsq *f, const qru_upd_req *rq)
{
    int op = rq->op, k = rq->k, p = rq->p;
    const qru_matrix *U = rq->U, *e = rq->e;
    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = f->dtype;
    int n = f->n, m = f->m, r = f->r, n1, m1;
    int thin = f->q == QRU_Q_THIN;
    double cond = 0.0;
    if (thin && op == QRU_UPD_OP_REMOVE_ROWS)
        QRU_TRY(qru_upd_thin_rows_judge(ctx, f, k, p, &cond));
    new_size(f, op, p, &n1, &m1);
    int nb = refactor_nb(f, ctx, m1);
    size_t nqr = 0;
    if (thin)
        QRU_TRY(qru_geqr_thin_workspace(ctx, dt, n1, m1, r, nb, f->nb, &nqr));
    else
        QRU_TRY(qru_qr_full_workspace(ctx, dt, n1, m1, 1, r, nb, f->nb,
                                      &nqr));
    /* A1, b1, then Q1 (full: n1 x n1; thin: R1 m1 x m1 and d1 m1 x r) */
    size_t oA = 0, oB = oA + (size_t)n1 * m1, oQ = oB + (size_t)n1 * r,
           oW = oQ + (thin ? (size_t)m1 * (m1 + r) : (size_t)n1 * n1),
           total = oW + nqr + 1;
    /* add columns, A + U V': the update's rank check (the rank rule) on
     * the new R1 (the columns from k + 1 on; all of them for U V') */
    int s = (op == QRU_UPD_OP_ADD_COLS &&
             qru_lsq_judges_rank(f, f->q == QRU_Q_FULL)) ||
                    (op == QRU_UPD_OP_MODIFY && qru_lsq_judges_rank(f, 1))
                ? m1
                : 0;
    double *hnorm = NULL;
    if (s > 0) {
        hnorm = malloc(sizeof(double) * 2 * (size_t)s);
        if (!hnorm)
            return QRU_HOST_ALLOC_FAILED;
    }
    qru_ptr ws;
    int st = qru_ctx_workspace(ctx, total * qru_dtype_size(dt), &ws);
    if (!st) /* keeps the contents; f is unchanged as a factorisation */
        st = qru_lsq_reserve(f, n1, m1);
    if (st) {
        free(hnorm);
        return st;
    }
    int ld = f->ncap, ldr = f->ldr, kin = thin ? m : n;
    qru_ptr A1 = qru_ptr_add(ws, oA), B1 = qru_ptr_add(ws, oB),
            Q1 = qru_ptr_add(ws, oQ), W = qru_ptr_add(ws, oW);
    qru_ptr R1 = Q1, D1 = qru_ptr_add(Q1, (size_t)m1 * m1); /* thin */
    qru_ptr Q = f->Q, R = f->R, d = f->d;

    if (op == QRU_UPD_OP_ADD_ROWS || op == QRU_UPD_OP_REMOVE_ROWS) {
        /* segments (source row, count, destination row) of A and b */
        int seg[2][3];
        if (op == QRU_UPD_OP_ADD_ROWS) {
            int a[2][3] = {{0, k, 0}, {k, n - k, k + p}};
            memcpy(seg, a, sizeof seg);
        } else {
            int a[2][3] = {{0, k, 0}, {k + p, n - k - p, k}};
            memcpy(seg, a, sizeof seg);
        }
        for (int i = 0; i < 2; ++i) {
            int s0 = seg[i][0], cnt = seg[i][1], d0 = seg[i][2];
            if (cnt <= 0)
                continue;
            QRU_TRY_GOTO(o->gemm(ctx, dt, 'N', 'N', cnt, m, m, 1.0,
                       qru_ptr_add(Q, (size_t)s0), ld, R, ldr, 0.0,
                       qru_ptr_add(A1, (size_t)d0), n1));
            QRU_TRY_GOTO(o->gemm(ctx, dt, 'N', 'N', cnt, r, kin, 1.0,
                       qru_ptr_add(Q, (size_t)s0), ld, d, ldr, 0.0,
                       qru_ptr_add(B1, (size_t)d0), n1));
            if (thin)
                QRU_TRY_GOTO(o->geadd(ctx, dt, cnt, r, 1.0,
                                      qru_ptr_add(f->E, (size_t)s0), ld, 1.0,
                                      qru_ptr_add(B1, (size_t)d0), n1));
        }
        if (op == QRU_UPD_OP_ADD_ROWS) {
            QRU_TRY_GOTO(o->copy(ctx, dt, p, m, U->p, U->ld, qru_ptr_add(A1, (size_t)k),
                       n1));
            QRU_TRY_GOTO(o->copy(ctx, dt, p, r, e->p, e->ld, qru_ptr_add(B1, (size_t)k),
                       n1));
        }
    } else {
        /* segments (source column, count, destination column) of A */
        int seg[2][3];
        if (op == QRU_UPD_OP_ADD_COLS) {
            int a[2][3] = {{0, k, 0}, {k, m - k, k + p}};
            memcpy(seg, a, sizeof seg);
        } else if (op == QRU_UPD_OP_MODIFY) {
            int a[2][3] = {{0, m, 0}, {0, 0, 0}};
            memcpy(seg, a, sizeof seg);
        } else {
            int a[2][3] = {{0, k, 0}, {k + p, m - k - p, k}};
            memcpy(seg, a, sizeof seg);
        }
        for (int i = 0; i < 2; ++i) {
            int s0 = seg[i][0], cnt = seg[i][1], d0 = seg[i][2];
            if (cnt <= 0)
                continue;
            QRU_TRY_GOTO(o->gemm(ctx, dt, 'N', 'N', n, cnt, m, 1.0, Q, ld,
                       qru_ptr_at(R, ldr, 0, s0), ldr, 0.0,
                       qru_ptr_at(A1, n1, 0, d0), n1));
        }
        QRU_TRY_GOTO(o->gemm(ctx, dt, 'N', 'N', n, r, kin, 1.0, Q, ld, d, ldr,
                             0.0, B1, n1));
        if (thin)
            QRU_TRY_GOTO(o->geadd(ctx, dt, n, r, 1.0, f->E, ld, 1.0, B1, n1));
        if (op == QRU_UPD_OP_ADD_COLS)
            QRU_TRY_GOTO(o->copy(ctx, dt, n, p, U->p, U->ld, qru_ptr_at(A1, n1, 0, k),
                       n1));
        if (op == QRU_UPD_OP_MODIFY)
            QRU_TRY_GOTO(o->gemm(ctx, dt, 'N', 'C', n, m, p, 1.0, U->p, U->ld,
                                 rq->V->p, rq->V->ld, 1.0, A1, n1));
    }
    if (thin)
        QRU_TRY_GOTO(qru_geqr_thin(ctx, dt, n1, m1, A1, n1, R1, m1, B1, n1,
                                   D1, m1, r, nb, f->nb, W));
    else
        QRU_TRY_GOTO(qru_qr_full(ctx, dt, n1, m1, A1, n1, Q1, n1, B1, n1, r,
                                 nb, f->nb, W));
    if (s > 0) {
        /* R1's rows 0 .. m1-1 hold all of its nonzeros */
        double *hdiag = hnorm + s;
        qru_ptr Rn = thin ? R1 : A1;
        int ldn = thin ? m1 : n1;
        QRU_TRY_GOTO(qru_qr_rank_gather(ctx, dt, m1, m1, Rn, Rn, ldn, hdiag,
                                        hnorm));
        if ((st = qru_qr_rank_first(dt, n1, m1, k, hdiag, hnorm)) != 0)
            goto done;
    }
    /* commit */
    if (thin) {
        QRU_TRY_GOTO(o->copy(ctx, dt, m1, m1, R1, m1, R, ldr));
        QRU_TRY_GOTO(o->copy(ctx, dt, n1, m1, A1, n1, Q, ld));
        QRU_TRY_GOTO(o->copy(ctx, dt, m1, r, D1, m1, d, ldr));
        QRU_TRY_GOTO(o->copy(ctx, dt, n1, r, B1, n1, f->E, ld));
    } else {
        QRU_TRY_GOTO(o->copy(ctx, dt, n1, m1, A1, n1, R, ld));
        QRU_TRY_GOTO(o->copy(ctx, dt, n1, n1, Q1, n1, Q, ld));
        QRU_TRY_GOTO(o->copy(ctx, dt, n1, r, B1, n1, d, ld));
    }
    f->n = n1;
    f->m = m1;
    if (cond > 0.0)
        f->dd_cond = cond;
done:
    free(hnorm);
    return st;
}
