/*
 * GPU benchmark of qru_lsq_remove_rows() (Andrew 2012, section 4.4):
 * TUS and TUT as in bench_add_cols.c.
 *
 * Sets: 0 the issue-4 target (remove 100 rows at k = 0 from n = 12000,
 * m = 6000, full Q kept); 1 p varies (dissertation table 5.17); 2 m varies
 * (table 5.18); 3 n varies (table 5.19).
 */
#include "bench_gpu_common.h"

static const bg_point pts[] = {
    {0, 12000, 6000, 100, 0, 1, 1},
    {1, 8000, 1000, 50, 0, 1, 0},
    {1, 8000, 1000, 200, 0, 1, 0},
    {2, 8000, 1000, 100, 0, 1, 0},
    {2, 8000, 4000, 100, 0, 1, 0},
    {2, 8000, 7000, 100, 0, 1, 0},
    {3, 4000, 1000, 100, 0, 1, 0},
    {3, 16000, 1000, 100, 0, 1, 0},
};

static const bg_point quick[] = {
    {0, 400, 200, 20, 0, 1, 1},
    {1, 400, 100, 40, 10, 1, 0},
};

int main(int argc, char **argv)
{
    return bg_update_main(
        argc, argv, "bench_remove_rows", 'R',
        "remove the p rows after row k", pts,
        (int)(sizeof pts / sizeof pts[0]), quick,
        (int)(sizeof quick / sizeof quick[0]),
        "0 target n12000 m6000 p100 k0 | 1 p (n8000 m1000) | 2 m (n8000) | "
        "3 n (m1000)");
}
