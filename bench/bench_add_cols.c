/*
 * GPU benchmark of qru_lsq_add_cols() (Andrew 2012, section 4.1):
 * TUS (device-resident update vs a cuSOLVER least-squares refactorisation
 * of A1) and TUT (host -> device -> update -> host vs the CPU backend).
 * Options: see bench_gpu_common.h or run with -h.
 *
 * Sets: 0 the issue-4 target (add 200 columns at k = m - 20 to n = 8000,
 * m = 3000, full Q kept); 1 k varies (dissertation table 5.3/5.4);
 * 2 p varies (table 5.7); 3 n varies; 4 m = 6000 (table 5.5).
 */
#include "bench_gpu_common.h"

static const bg_point pts[] = {
    {0, 8000, 3000, 200, 2980, 1, 1},
    {1, 8000, 3000, 200, 0, 1, 0},
    {1, 8000, 3000, 200, 1000, 1, 0},
    {1, 8000, 3000, 200, 2000, 1, 0},
    {2, 8000, 3000, 50, 2980, 1, 0},
    {2, 8000, 3000, 500, 2980, 1, 0},
    {2, 8000, 3000, 1000, 2980, 1, 0},
    {3, 4000, 3000, 200, 2980, 1, 0},
    {3, 12000, 3000, 200, 2980, 1, 0},
    {4, 12000, 6000, 200, 0, 1, 0},
    {4, 12000, 6000, 200, 5980, 1, 0},
};

static const bg_point quick[] = {
    {0, 400, 150, 20, 130, 1, 1},
    {1, 400, 150, 20, 0, 1, 0},
    {2, 400, 150, 50, 130, 1, 0},
};

int main(int argc, char **argv)
{
    return bg_update_main(
        argc, argv, "bench_add_cols", 'c', "add p columns after column k",
        pts, (int)(sizeof pts / sizeof pts[0]), quick,
        (int)(sizeof quick / sizeof quick[0]),
        "0 target n8000 m3000 p200 k2980 | 1 k | 2 p | 3 n | 4 m=6000, n=12000");
}
