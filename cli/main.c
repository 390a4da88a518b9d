/* qru: command-line front end of the qru library.
 *
 *   qru info                      version, backends, devices
 *   qru demo [options]            demonstrations on the Mauna Loa CO2 series
 *                                 (and, batched, on US macroeconomic series)
 *   qru --help | --version
 *
 * The demonstrations use the public API only (qru.h).  LAPACKE is linked for
 * the reference solutions that each demonstration checks itself against.
 *
 * Adding a demonstration part: write `static int demo_NAME(const demo_env *)`
 * returning DEMO_PASS / DEMO_FAIL / DEMO_ERROR and add it to demo_parts[]
 * (below the parts); `qru demo` runs all parts in order, `--part NAME` one.
 */
#include "cli.h"

/* ------------------------------------------------------------------------ */
/* Usage */

static void usage(FILE *out)
{
    fprintf(out,
            "usage: qru <command> [options]\n"
            "\n"
            "commands:\n"
            "  info      version, backends compiled in, for each whether it\n"
            "            runs here (its device: CPU, GPU or accelerator; the\n"
            "            BLAS, or the module file) or why not (no module, no\n"
            "            driver, no device), and which backend 'auto' picks\n"
            "  demo      demonstrations on the Mauna Loa CO2 series, each one\n"
            "            checking itself; exit status 0 only if every check\n"
            "            passes.  Parts (run in this order):\n"
            "              fit     trend + seasonal least-squares fit, checked\n"
            "                      against LAPACKE_dgels\n"
            "              window  a 10-year window sliding through the series,\n"
            "                      kept by the four QR updates (add/remove rows\n"
            "                      and columns); every slide checked against\n"
            "                      and timed with a refactorisation\n"
            "              gp      Gaussian-process regression of the de-trended\n"
            "                      series: hyperparameters by log marginal\n"
            "                      likelihood, forecasts +- 2 sd, then points\n"
            "                      added/removed by Cholesky updates, checked\n"
            "                      against and timed with a rebuild\n"
            "              select  the terms that explain the series: orthogonal\n"
            "                      matching pursuit over 30 candidate columns,\n"
            "                      its steps a second, checked against\n"
            "                      LAPACKE_dgels on the chosen columns\n"
            "              batch   an AR(4) model of each of 11 US\n"
            "                      macroeconomic series (the embedded\n"
            "                      statsmodels macrodata, not --data), refitted\n"
            "                      every quarter as one batch (qru_lsq_batch),\n"
            "                      timed against single calls and checked\n"
            "                      against LAPACKE_dgels\n"
            "  help      this message\n"
            "\n"
            "demo options:\n"
            "  --backend cpu|cuda|opencl|auto   (default auto)\n"
            "  --precision double|single        (default double)\n"
            "  --data FILE   use a CSV of the same form as data/co2.csv\n"
            "                (decimal year, ppm) instead of the embedded series\n"
            "                Every line that is not 'year,value' with two finite\n"
            "                numbers is skipped and reported with its number and\n"
            "                the reason; times must increase strictly\n"
            "  --plot DIR    write the figures as PNG files into DIR: fit.png\n"
            "                (data, model, trend), window.png (trend per window,\n"
            "                update vs refactor time per slide), gp.png\n"
            "                (forecast +- 2 sd against held-out data)\n"
            "  --csv DIR     write the numbers behind the figures as CSV files\n"
            "                (series,x,y) into DIR\n"
            "  --part NAME   run one part only (default: all): all");
}


/* ---- the table of parts (append new parts here) ---- */
typedef int (*demo_fn)(const demo_env *env);
static const struct demo_part {
    const char *name;
    demo_fn run;
} demo_parts[] = {
    {"fit", demo_fit},
    {"window", demo_window},
    {"gp", demo_gp},
    {"select", demo_select},
    {"batch", demo_batch},
};
enum { N_DEMO_PARTS = sizeof demo_parts / sizeof demo_parts[0] };

static void usage_full(FILE *out)
{
    usage(out);
    for (int i = 0; i < N_DEMO_PARTS; i++)
        fprintf(out, " %s", demo_parts[i].name);
    fprintf(out, "\n");
}

/* ------------------------------------------------------------------------ */
/* Commands */

/* The version, then one line a backend and the backend auto picks, each
 * from qru_backend_info (Python's qru.show_config() prints the same). */
static int cmd_info(void)
{
    static const qru_backend backends[] = {QRU_BACKEND_CPU, QRU_BACKEND_CUDA,
                                           QRU_BACKEND_OPENCL};
    char line[512];
    printf("qru %s\n", qru_version());
    printf("backends compiled in:");
    for (int i = 0; i < 3; i++)
        if (qru_backend_compiled(backends[i]))
            printf(" %s", qru_backend_name(backends[i]));
    printf("\n");
    for (int i = 0; i < 3; i++) {
        int st = qru_backend_info(backends[i], line, sizeof line);
        printf("  %-7s %s: %s\n", qru_backend_name(backends[i]),
               st ? "unavailable" : "usable", line);
    }
    int st = qru_backend_info(QRU_BACKEND_AUTO, line, sizeof line);
    printf("auto picks %s\n", st ? "none" : line);
    return st ? 1 : 0;
}

/* Matches "--name VALUE" or "--name=VALUE"; advances *i past VALUE. */
static int option_value(int argc, char **argv, int *i, const char *name,
                        const char **value)
{
    size_t len = strlen(name);
    const char *a = argv[*i];
    if (strncmp(a, name, len) != 0)
        return 0;
    if (a[len] == '=') {
        *value = a + len + 1;
        return 1;
    }
    if (a[len] != '\0')
        return 0;
    if (*i + 1 >= argc) {
        *value = NULL;
        return 1;
    }
    *value = argv[++*i];
    return 1;
}

/* The directory of --plot / --csv, or NULL after saying it is missing. */
static const char *dir_value(const char *opt, const char *v)
{
    if (!v || !*v)
        fprintf(stderr, "qru demo: %s needs a directory\n", opt);
    return v && *v ? v : NULL;
}

static int cmd_demo(int argc, char **argv)
{
    qru_backend backend = QRU_BACKEND_AUTO;
    qru_dtype dt = QRU_DOUBLE;
    const char *data_path = NULL, *part = NULL, *v = NULL;
    const char *plot_dir = NULL, *csv_dir = NULL;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage_full(stdout);
            return 0;
        } else if (option_value(argc, argv, &i, "--backend", &v)) {
            if (!v || parse_backend(v, &backend)) {
                fprintf(stderr, "qru demo: --backend needs cpu, cuda, opencl "
                                "or auto\n");
                return EXIT_USAGE;
            }
        } else if (option_value(argc, argv, &i, "--precision", &v)) {
            if (!v || parse_precision(v, &dt)) {
                fprintf(stderr,
                        "qru demo: --precision needs double or single\n");
                return EXIT_USAGE;
            }
        } else if (option_value(argc, argv, &i, "--data", &v)) {
            if (!v) {
                fprintf(stderr, "qru demo: --data needs a file name\n");
                return EXIT_USAGE;
            }
            data_path = v;
        } else if (option_value(argc, argv, &i, "--plot", &v)) {
            if (!(plot_dir = dir_value("--plot", v)))
                return EXIT_USAGE;
        } else if (option_value(argc, argv, &i, "--csv", &v)) {
            if (!(csv_dir = dir_value("--csv", v)))
                return EXIT_USAGE;
        } else if (option_value(argc, argv, &i, "--part", &v)) {
            int found = v && strcmp(v, "all") == 0;
            for (int k = 0; v && k < N_DEMO_PARTS; k++)
                found |= strcmp(v, demo_parts[k].name) == 0;
            if (!found) {
                fprintf(stderr, "qru demo: unknown part '%s'\n",
                        v ? v : "");
                usage_full(stderr);
                return EXIT_USAGE;
            }
            part = strcmp(v, "all") == 0 ? NULL : v;
        } else {
            fprintf(stderr, "qru demo: unknown option '%s'\n", argv[i]);
            usage_full(stderr);
            return EXIT_USAGE;
        }
    }

    series data;
    if (data_path) {
        if (series_read(&data, data_path))
            return 1;
        if (series_check(&data)) {
            series_free(&data);
            return 1;
        }
    } else {
        series_embedded(&data);
    }

    qru_context *ctx = NULL;
    int st = qru_context_create(backend, &ctx);
    if (st) {
        fprintf(stderr, "qru demo: cannot create a %s context: %s\n",
                qru_backend_name(backend), qru_last_error(NULL));
        series_free(&data);
        return 1;
    }
    if (!qru_context_supports(ctx, dt)) {
        fprintf(stderr, "qru demo: the %s device (%s) does not compute in %s "
                        "precision\n",
                qru_backend_name(qru_context_backend(ctx)),
                qru_context_device_name(ctx), precision_name(dt));
        qru_context_destroy(ctx);
        series_free(&data);
        return 1;
    }

    demo_env env = {ctx, dt, &data, plot_dir || csv_dir};
    int failed = 0, errors = 0, ran = 0;
    for (int k = 0; k < N_DEMO_PARTS; k++) {
        if (part && strcmp(part, demo_parts[k].name) != 0)
            continue;
        if (ran++)
            printf("\n");
        int rc = demo_parts[k].run(&env);
        failed += rc == DEMO_FAIL;
        errors += rc == DEMO_ERROR;
    }
    qru_context_destroy(ctx);
    series_free(&data);
    if (plot_dir || csv_dir) {
        printf("\n");
        errors += fig_write_all(plot_dir, csv_dir) != 0;
    }
    fig_free_all();
    printf("\nqru demo: %d part(s), %s\n", ran,
           errors ? "ERROR" : failed ? "FAIL" : "all PASS");
    return failed || errors ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage_full(stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 ||
        strcmp(cmd, "help") == 0) {
        usage_full(stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("qru %s\n", qru_version());
        return 0;
    }
    if (strcmp(cmd, "info") == 0) {
        if (argc > 2) {
            fprintf(stderr, "qru info: takes no arguments\n");
            return EXIT_USAGE;
        }
        return cmd_info();
    }
    if (strcmp(cmd, "demo") == 0)
        return cmd_demo(argc - 2, argv + 2);
    fprintf(stderr, "qru: unknown command '%s'\n", cmd);
    usage_full(stderr);
    return EXIT_USAGE;
}
