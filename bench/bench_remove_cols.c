/*
 * GPU benchmark of qru_lsq_remove_cols() (Andrew 2012, section 4.2):
 * TUS and TUT as in bench_add_cols.c.
 *
 * Sets: 0 the issue-4 target (remove 200 columns at k = 0 from n = 6000,
 * m = 3000; R only, and with the full Q kept); 1 k varies (dissertation
 * tables 5.8-5.10); 2 p varies; 3 n varies at p = 500 (table 5.11).
 */
#include "bench_gpu_common.h"

static const bg_point pts[] = {
    {0, 6000, 3000, 200, 0, 0, 1},
    {0, 6000, 3000, 200, 0, 1, 1},
    {1, 6000, 3000, 200, 1000, 0, 0},
    {1, 6000, 3000, 200, 2000, 0, 0},
    {1, 6000, 3000, 200, 2800, 0, 0},
    {2, 6000, 3000, 100, 0, 0, 0},
    {2, 6000, 3000, 500, 0, 0, 0},
    {3, 9000, 3000, 500, 0, 0, 0},
    {3, 12000, 3000, 500, 0, 0, 0},
};

static const bg_point quick[] = {
    {0, 300, 150, 20, 0, 0, 1},
    {0, 300, 150, 20, 0, 1, 1},
    {1, 300, 150, 20, 100, 0, 0},
};

int main(int argc, char **argv)
{
    return bg_update_main(
        argc, argv, "bench_remove_cols", 'C',
        "remove the p columns after column k", pts,
        (int)(sizeof pts / sizeof pts[0]), quick,
        (int)(sizeof quick / sizeof quick[0]),
        "0 target n6000 m3000 p200 k0 (keepq 0 and 1) | 1 k | 2 p | 3 n");
}
