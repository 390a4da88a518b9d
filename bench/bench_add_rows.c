/*
 * GPU benchmark of qru_lsq_add_rows() (Andrew 2012, section 4.3):
 * TUS and TUT as in bench_add_cols.c.
 *
 * Sets: 0 the issue-4 target (add 200 rows at k = 0 to n = 8000, m = 3000;
 * R only, and with the full Q kept); 1 p varies (dissertation tables
 * 5.12-5.14); 2 m varies (table 5.15); 3 n varies at p = 500 (table 5.16).
 */
#include "bench_gpu_common.h"

static const bg_point pts[] = {
    {0, 8000, 3000, 200, 0, 0, 1},
    {0, 8000, 3000, 200, 0, 1, 1},
    {1, 8000, 3000, 100, 0, 0, 0},
    {1, 8000, 3000, 500, 0, 0, 0},
    {1, 8000, 3000, 1000, 0, 0, 0},
    {2, 8000, 1000, 200, 0, 0, 0},
    {2, 8000, 2000, 200, 0, 0, 0},
    {3, 4000, 3000, 500, 0, 0, 0},
    {3, 16000, 3000, 500, 0, 0, 0},
};

static const bg_point quick[] = {
    {0, 400, 150, 20, 0, 0, 1},
    {0, 400, 150, 20, 0, 1, 1},
    {1, 400, 150, 60, 0, 0, 0},
};

int main(int argc, char **argv)
{
    return bg_update_main(
        argc, argv, "bench_add_rows", 'r', "add p rows after row k", pts,
        (int)(sizeof pts / sizeof pts[0]), quick,
        (int)(sizeof quick / sizeof quick[0]),
        "0 target n8000 m3000 p200 k0 (keepq 0 and 1) | 1 p | 2 m | 3 n");
}
