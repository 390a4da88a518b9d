#!/usr/bin/env python3
"""Writes the seed corpus of fuzz_api (tests/fuzz/corpus): one small file
per scenario, in the byte encoding that fuzz_api.c decodes (see the op_*
functions there).  Files of the corpus not named here are inputs the
fuzzer found (regress_*: a fixed bug) and are kept as they are."""
import os

G = [7, 1, 0]          # generator: seed (2 bytes), no specials
NAN = [9, 2, 200, 3, 0, 0]   # one special: NaN at position 3
INF = [5, 5, 201, 0, 0, 1, 1, 0, 4]  # two specials: +Inf, 1e308
G2 = [9, 4, 0]         # other seeds (G's columns would repeat A's: b in
G3 = [3, 8, 0]         # the range of A, U in its column space)


def lsq(n, m, r=1, keep=1, from_qr=False, gen_a=G, nb=1, thin=False, rtall=False,
        gen_b=G, accept=False):
    # bit 2: the thin form (create) or the economy Q (create_from_qr, n > m;
    # bit 3: R n x m instead of m x m); top bits 011: QRU_RANK_ACCEPT
    ob = (0x60 if accept else 0x20) | (1 if keep else 0) | (2 if keep else 0) \
        | (4 if thin else 0) | (8 if rtall else 0)
    b = [1 if from_qr else 0, n - 1, m - 1, r - 1, 0] + gen_a + gen_b + [ob, nb, 0, 0]
    return b + ([1] if from_qr else [])


# dup: U's first column is a copy of column dup - 1 of A (ub bit 1)
def add_cols(k, p, gen=G, dup=0): return [2, 0, k, p, (2 | (dup - 1) << 2) if dup else 0] + gen
# the _data forms (op bytes 0x22, 0x25) take one byte per data argument:
# 0 the model's data, 240 one entry changed, 253 NULL, 255 a row too many
def add_cols_data(k, p, gen=G, dup=0, da=0, db=0):
    return [0x22] + add_cols(k, p, gen, dup)[1:] + [da, db]
def remove_rows_data(k, p, du=0, de=0): return [0x25, 0, k, p, du, de]
def remove_cols(k, p): return [3, 0, k, p]
def add_rows(k, p): return [4, 0, k, p, 0] + G + G
def remove_rows(k, p): return [5, 0, k, p]
# a new batch (count problems n x m, r right-hand sides; form 0 full, 1
# thin, 2 Q-less, create: qru_lsq_batch_create for the Q-less form, rank:
# opt->rank) and qru_lsq_batch_add_cols_data(k, p columns) on it (op byte
# 0x26); dup = (page, column): that page's first new column copies a
# column of its A; da, db as for add_cols_data (251: a page too many)
def batch_add_cols_data(count, form, n, m, r, k, p, create=False, rank=0, dup=None,
                        da=0, db=0, info=True):
    cb = next(c for c in range(255) if 1 + c % 3 == count and (c >> 2) % 3 == form
              and bool(c & 0x40) == create and (c >> 5) & 1 == rank)
    vb = (2 | dup[0] << 2 | dup[1] << 4) if dup else 0
    return [0x26, cb, n - 1, m - 1, r - 1] + G + G2 + [k, p, vb | (0 if info else 1)] \
        + G3 + [da, db]


# zero: column zero - 1 of A1 is exactly zero (vb bit 1)
def modify(k, zero=0): return [18, 0, k, 0, (2 | (zero - 1) << 2) if zero else 0] + G + G
def shift_cols(i, j): return [19, 0, i, j]
def alg(a): return [6, 1, a]
def solve(): return [7, 0, 0]
def chol(n, uplo=0, variant=0, gen=G): return [8, n, uplo, variant, 0, 0x11] + gen + [0]
def chol_update(sign, k): return [9, 1 if sign > 0 else 2, k] + G
def chol_insert(k, p): return [10, 0, k, p] + G
def chol_delete(k, p): return [11, 0, p, k]
def chol_shift(i, j, inplace=False): return [20, 0x30 if inplace else 0, i, j]
def gp(n, gen=G): return [12, n, 1] + gen + G
def gp_insert(k, p): return [13, 1, k, p] + G + G
def gp_remove(k, p): return [13, 0, k, p]
def gp_query(m): return [14, 0, m] + G


seeds = {
    "lsq_updates_double": [0] + lsq(8, 3) + add_cols(1, 2) + remove_cols(0, 1)
    + add_rows(2, 2) + remove_rows(1, 3) + solve(),
    "lsq_updates_float": [1] + lsq(9, 4) + alg(1) + add_cols(4, 1) + add_rows(0, 3)
    + remove_rows(0, 2) + remove_cols(2, 2) + solve(),
    "lsq_auto_fast": [0] + lsq(10, 5) + alg(2) + add_rows(5, 1) + alg(0)
    + remove_rows(3, 1) + add_cols(0, 3) + solve(),
    "lsq_no_q": [1] + lsq(7, 3, keep=0) + add_rows(7, 2) + remove_cols(1, 1)
    + add_cols(0, 1) + remove_rows(0, 1) + solve(),
    "lsq_from_qr": [0] + lsq(6, 3, 2, from_qr=True) + add_cols(3, 1) + solve(),
    "lsq_nonfinite": [0] + lsq(6, 2, gen_a=NAN) + add_rows(1, 1) + solve()
    + remove_cols(0, 1),
    "lsq_modify": [0] + lsq(12, 5) + modify(2) + add_cols(1, 1) + modify(1)
    + alg(1) + modify(3) + remove_rows(2, 2) + solve(),
    "lsq_modify_float_no_q": [1] + lsq(9, 4) + modify(2) + lsq(7, 3, keep=0)
    + modify(1) + [18, 0, 1, 255, 0] + G + G,
    "lsq_shift": [0] + lsq(9, 5) + shift_cols(1, 4) + shift_cols(4, 0)
    + add_cols(2, 1) + shift_cols(5, 2) + solve() + lsq(8, 4, keep=0)
    + shift_cols(0, 3) + shift_cols(3, 1) + solve(),
    "lsq_thin_double": [0] + lsq(9, 3, 2, thin=True, gen_b=G2) + alg(0) + add_cols(1, 2, G3)
    + remove_rows(2, 2) + add_rows(0, 3) + remove_cols(0, 1) + solve()
    + shift_cols(0, 3) + modify(2) + solve(),
    "lsq_thin_float": [1] + lsq(10, 4, thin=True, gen_b=G2) + alg(2) + add_rows(4, 2)
    + remove_rows(0, 3) + alg(3) + add_cols(4, 1, G3) + modify(3) + remove_rows(1, 1)
    + solve(),
    # n = m: Q1 is square, the thin form's modify takes any k
    "lsq_thin_square": [0] + lsq(5, 5, thin=True, gen_b=G2) + modify(3) + remove_cols(4, 1)
    + remove_rows(4, 1) + add_rows(0, 1) + solve(),
    "lsq_thin_from_qr": [0] + lsq(8, 3, 2, from_qr=True, thin=True, gen_b=G2) + alg(1)
    + add_cols(3, 1, G3)
    + remove_rows(0, 2) + solve() + lsq(7, 2, from_qr=True, thin=True, rtall=True, gen_b=G2)
    + add_rows(1, 2) + modify(1) + solve(),
    "lsq_bad_args": [0] + lsq(5, 2) + [3, 0, 255, 3] + [5, 0, 230, 2] + [2, 255, 0, 1, 0] + G
    + [6, 0, 226],
    # QRU_RANK_ACCEPT: the full form adds a copy of a column of A and
    # zeroes a column (status 0, Q1 R1 = A1 with R1 singular; the solve
    # reports the rank); the thin form takes the zero column but refuses
    # the copy; the default refuses both
    "lsq_rank_accept_full": [0] + lsq(8, 3, accept=True) + add_cols(1, 1, G3, dup=1)
    + solve() + remove_cols(1, 1) + solve() + modify(2, zero=3) + solve()
    + add_rows(2, 2) + remove_rows(0, 3) + add_cols_data(0, 2, G2, dup=2) + solve(),
    "lsq_rank_accept_thin": [1] + lsq(9, 4, thin=True, gen_b=G2, accept=True)
    + modify(1, zero=2) + solve() + add_cols(0, 1, G3, dup=1) + remove_rows(3, 2)
    + add_cols(4, 1, G3) + shift_cols(0, 4) + solve(),
    "lsq_rank_refuse": [0] + lsq(8, 3, thin=True, gen_b=G2) + add_cols(3, 1, G3, dup=2)
    + modify(2, zero=1) + lsq(7, 3) + add_cols(0, 2, G3, dup=3) + modify(1, zero=3)
    + solve(),
    # opt->rank 2 (create: -4) and -1 (create_from_qr: -5)
    "lsq_rank_bad_option": [0] + [0, 5, 2, 0, 0] + G + G + [0x7f, 1, 0, 0]
    + [1, 5, 2, 0, 0] + G + G + [0xdf, 1, 0, 0, 1],
    # the Q-less form with its data: columns added (CSNE; a copy of a
    # column refused), rows removed (p <= m and p > m), one call with an
    # entry of b changed
    "lsq_data_no_q": [0] + lsq(10, 3, 2, keep=0, gen_b=G2) + remove_rows_data(0, 4)
    + add_rows(3, 3) + add_cols_data(1, 2, G3) + add_cols_data(0, 1, G3, dup=2)
    + remove_rows_data(2, 2) + add_rows(0, 3) + remove_rows_data(1, 7) + solve()
    + add_cols_data(5, 1, G3) + remove_cols(0, 2) + remove_rows_data(0, 1) + solve()
    + lsq(6, 2, keep=0) + add_cols_data(2, 1, G3, db=242) + add_rows(1, 1),
    "lsq_data_float_no_q": [1] + lsq(12, 4, keep=0, gen_b=G2) + remove_rows_data(3, 6)
    + add_cols_data(0, 1, G3) + alg(1) + add_rows(2, 2) + remove_rows_data(0, 2) + solve(),
    # the forms with Q read only the sizes of the data: changed entries
    # are harmless, wrong shapes and NULL are -4 / -5
    "lsq_data_q": [0] + lsq(9, 3, gen_b=G2) + add_cols_data(1, 2, G3, da=241)
    + remove_rows_data(2, 2, du=243) + add_cols_data(0, 1, G3, da=255)
    + add_cols_data(0, 1, G3, db=253) + remove_rows_data(0, 1, de=255)
    + remove_rows_data(0, 1, du=253) + lsq(8, 3, thin=True, gen_b=G2)
    + add_cols_data(3, 1, G3) + remove_rows_data(1, 2, de=244) + solve(),
    # the batches with their data: every form, a refusal (one problem's
    # new column copies one of its columns: no problem changes), the
    # forms with Q not reading A and b, bad shapes
    "lsq_batch_add_cols_data": [0] + batch_add_cols_data(3, 1, 9, 3, 2, 1, 2)
    + batch_add_cols_data(2, 0, 8, 3, 1, 3, 1, rank=1, da=242)
    + batch_add_cols_data(2, 2, 10, 4, 2, 0, 3, create=True)
    + batch_add_cols_data(3, 2, 9, 3, 1, 2, 2, dup=(1, 2))
    + batch_add_cols_data(2, 1, 7, 2, 1, 0, 1, dup=(0, 0), info=False)
    + batch_add_cols_data(2, 2, 8, 3, 1, 1, 1, da=251)
    + batch_add_cols_data(1, 0, 6, 2, 1, 1, 1, db=255),
    "lsq_batch_add_cols_data_float": [1] + batch_add_cols_data(2, 2, 11, 4, 1, 2, 3)
    + batch_add_cols_data(3, 1, 12, 5, 3, 5, 2),
    "chol_lower": [0] + chol(8) + chol_update(1, 2) + chol_insert(3, 2)
    + chol_delete(1, 3) + chol_update(-1, 1),
    # the last shift's L1 is of the wrong order
    "chol_shift": [0] + chol(8) + chol_shift(1, 6) + chol_shift(7, 0, True)
    + chol_shift(3, 3) + chol(7, 1) + chol_shift(2, 5) + [20, 0xC0, 0, 2],
    "chol_upper_float": [1] + chol(9, 1, 1) + chol_insert(0, 1) + chol_update(-1, 2)
    + chol_delete(4, 2),
    # chol_solve, then trsm(side, uplo, trans, diag, alpha) on the factor
    "chol_solve_trsm": [0] + chol(7) + [16, 0, 1] + G + [0, 0, 0]
    + [16, 0, 2] + G + [1, 1, 1] + [17, 0, 0] + G + [56, 0, 3],
    "chol_crout_inplace": [0] + chol(6, 0, 3) + chol(7, 1, 5) + chol(5, 0, 2, INF),
    "gp_double": [0] + gp(6) + gp_insert(2, 2) + gp_query(3) + gp_remove(1, 3)
    + gp_query(1),
    "gp_float_inf": [1] + gp(5, INF) + gp_insert(0, 1) + gp_query(2),
    # a double matrix of 2147483647 x 1073741825: 2^64 + 2^33 - 8 bytes,
    # which wrapped to an 8 GB request before the size check
    "regress_matrix_size_overflow": [0, 15, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F,
                                     0xFF, 0x01, 0x00, 0x00, 0x40, 0],
    # a double matrix of 2147483646 x 1073741825: 2^64 - 16 bytes, which
    # the CPU backend's rounding to 64 bytes wrapped to a 64-byte buffer
    "regress_matrix_size_rounding": [0, 15, 0, 0xFF, 0xFE, 0xFF, 0xFF, 0x7F,
                                     0xFF, 0x01, 0x00, 0x00, 0x40, 0],
    # qru_lsq_modify with the update block size INT_MAX: the window's
    # rows nb + k overflowed in the plan
    "regress_modify_nb_overflow": [0] + lsq(8, 3) + [6, 0, 0xE3] + modify(1),
    # qru_chol_delete(k = 1, p = INT_MAX): k + p overflowed in its check
    "regress_chol_delete_p_overflow": [0] + chol(8) + [11, 0, 0xFB, 1],
    # qru_gp_remove(k = 1, p = INT_MAX): the same
    "regress_gp_remove_p_overflow": [0, 12, 5, 1] + G + G + [13, 0, 1, 0xFB],
}

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
os.makedirs(out, exist_ok=True)
for name, b in seeds.items():
    with open(os.path.join(out, name), "wb") as f:
        f.write(bytes(v & 0xFF for v in b))
