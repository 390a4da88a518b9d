/*
 * The benchmarks' command line and time budget.
 * (Shared parts of the GPU benchmarks; see bench_gpu_common.h.)
 */
#include "bench_gpu_common.h"

#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <lapacke.h>

/* ---- command line --------------------------------------------------------- */

static double g_t0;

void bg_parse(int argc, char **argv, const char *prog, const char *what,
              bg_opts *o)
{
    memset(o, 0, sizeof *o);
    o->prog = prog;
    o->reps = 5;
    o->budget = 1e30;
    o->prec = 3;
    o->tus = o->tut = o->sweeps = 1;
    const char *env = getenv("OUT");
    o->outdir = env && *env ? env : ".";
    g_t0 = bg_now();
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-o") && v) {
            o->outdir = v;
            ++i;
        } else if (!strcmp(a, "-r") && v) {
            o->reps = atoi(v);
            ++i;
        } else if (!strcmp(a, "-t") && v) {
            o->budget = atof(v);
            ++i;
        } else if (!strcmp(a, "-p") && v) {
            o->prec = (strchr(v, 's') ? 1 : 0) | (strchr(v, 'd') ? 2 : 0) |
                      (strchr(v, 'c') ? 4 : 0) | (strchr(v, 'z') ? 8 : 0);
            ++i;
        } else if (!strcmp(a, "-P") && v) {
            int *q = o->point;
            if (sscanf(v, "%d,%d,%d,%d,%d", q, q + 1, q + 2, q + 3, q + 4) !=
                5) {
                fprintf(stderr, "%s: -P wants n,m,p,k,keepq\n", prog);
                exit(2);
            }
            o->have_point = 1;
            ++i;
        } else if (!strcmp(a, "-q")) {
            o->quick = 1;
        } else if (!strcmp(a, "--cpu-only")) {
            o->cpu_only = 1;
        } else if (!strcmp(a, "--no-tus")) {
            o->tus = 0;
        } else if (!strcmp(a, "--no-tut")) {
            o->tut = 0;
        } else if (!strcmp(a, "--no-sweeps")) {
            o->sweeps = 0;
        } else {
            int help = !strcmp(a, "-h") || !strcmp(a, "--help");
            fprintf(help ? stdout : stderr,
                    "%s: %s\n"
                    "usage: %s [-o DIR] [-r REPS] [-t SECONDS] [-p sdcz] [-q] [-P ...]\n"
                    "          [--cpu-only] [--no-tus] [--no-tut] [--no-sweeps]\n"
                    "  -o DIR      where the tables go (default $OUT, else .)\n"
                    "  -r REPS     timed repeats per point, median reported "
                    "(default 5)\n"
                    "  -t SECONDS  start no new sweep point after this long in the "
                    "sweeps\n              (the target shapes run first, "
                    "uncounted)\n"
                    "  -p sdcz     element types, any of s (float), d (double), "
                    "c (complex\n              float), z (complex double) "
                    "(default sd)\n"
                    "  -q          small sizes (smoke test)\n"
                    "  -P n,m,p,k,keepq  this one problem instead of the "
                    "built-in list\n"
                    "  --cpu-only  only the CPU-backend side (no GPU needed)\n",
                    prog, what, prog);
            exit(help ? 0 : 2);
        }
    }
    if (o->reps < 1 || o->reps > 1000)
        o->reps = 5;
    if (!o->prec)
        o->prec = 3;
    mkdir(o->outdir, 0777); /* may exist already */
}

int bg_dtypes(const bg_opts *o, qru_dtype dts[4])
{
    static const qru_dtype order[4] = {QRU_DOUBLE, QRU_FLOAT,
                                       QRU_COMPLEX_DOUBLE, QRU_COMPLEX_FLOAT};
    int n = 0;
    for (int i = 0; i < 4; ++i)
        if (o->prec & bg_prec_bit(order[i]))
            dts[n++] = order[i];
    return n;
}

int bg_prec_bit(qru_dtype dt)
{
    return dt == QRU_FLOAT           ? 1
           : dt == QRU_DOUBLE        ? 2
           : dt == QRU_COMPLEX_FLOAT ? 4
                                     : 8;
}

int bg_over_budget(const bg_opts *o)
{
    /* the clock starts at the first question, i.e. at the first sweep
     * point: the target shapes before it are not counted */
    static int started;
    if (!started) {
        started = 1;
        g_t0 = bg_now();
    }
    return bg_now() - g_t0 > o->budget;
}
