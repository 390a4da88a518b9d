/*
 * The backend modules and qru_backend_info, on the shared libqru (this
 * program links the installed library's build, not qru_internal, and no
 * CUDA or OpenCL library of its own):
 *  - with QRU_MODULE_DIR naming a directory without modules, a CUDA or
 *    OpenCL context is refused with QRU_ERR_BACKEND_UNAVAILABLE and the
 *    reason (module not found, with the directory; or no driver), never an
 *    abort; qru_backend_info says the same (run first, in a child process,
 *    before any module is loaded);
 *  - at start and after a CPU context and the CPU's qru_backend_info, no
 *    CUDA library (libcudart, libcublas, libcusolver, libcusparse,
 *    libnvJitLink, libcuda) and no OpenCL library (libOpenCL, libclblast)
 *    is mapped (/proc/self/maps), nor either module;
 *  - qru_backend_info's argument checks (-1, -2, -3), and its text: the
 *    BLAS and LAPACKE for the CPU, the backend auto picks;
 *  - an OpenCL context maps libqru_opencl (and libOpenCL) and no CUDA
 *    library (the CUDA driver aside: NVIDIA's OpenCL driver may load
 *    it), and qru_backend_info names the module's file;
 *  - a CUDA context either works (the module and the CUDA runtime mapped)
 *    or is refused with a reason; refused for want of a driver, it has
 *    mapped no CUDA library.
 * Exit 0 when every check passes, 1 otherwise (Linux only: 77 elsewhere).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "qru.h"

static int failures;

#define CHECK(cond, ...)                                                       \
    do {                                                                       \
        if (!(cond)) {                                                         \
            printf("FAIL line %d: ", __LINE__);                                \
            printf(__VA_ARGS__);                                               \
            printf("\n");                                                      \
            ++failures;                                                        \
        }                                                                      \
    } while (0)

/* the CUDA module and the toolkit's libraries; the driver apart (NVIDIA's
 * OpenCL driver may map it) */
static const char *const cuda_libs[] = {"libqru_cuda", "libcudart",
                                        "libcublas",   "libcusolver",
                                        "libcusparse", "libnvJitLink", NULL};
static const char *const cuda_driver[] = {"libcuda.so", NULL};
static const char *const opencl_libs[] = {"libqru_opencl", "libOpenCL",
                                          "libclblast", NULL};

/* The first library of names mapped into this process, or NULL. */
static const char *mapped(const char *const *names)
{
    static char found[256];
    FILE *f = fopen("/proc/self/maps", "r");
    char line[4096];
    const char *hit = NULL;
    if (!f)
        return NULL;
    while (!hit && fgets(line, sizeof line, f)) {
        const char *path = strchr(line, '/');
        const char *base = path ? strrchr(path, '/') + 1 : NULL;
        for (int i = 0; base && names[i] && !hit; ++i)
            if (strncmp(base, names[i], strlen(names[i])) == 0) {
                snprintf(found, sizeof found, "%s", path);
                found[strcspn(found, "\n")] = '\0';
                hit = found;
            }
    }
    fclose(f);
    return hit;
}

/* No CUDA library (without_driver: nor the driver) is mapped. */
static void no_cuda(const char *when, int without_driver)
{
    const char *c = mapped(cuda_libs);
    if (!c && without_driver)
        c = mapped(cuda_driver);
    CHECK(!c, "%s: a CUDA library is mapped: %s", when, c);
}

static void none_mapped(const char *when)
{
    const char *o = mapped(opencl_libs);
    no_cuda(when, 1);
    CHECK(!o, "%s: an OpenCL library is mapped: %s", when, o);
}

/* In a child, with QRU_MODULE_DIR = an empty directory: every GPU backend
 * built is refused with a reason, by both calls. */
static void missing_modules(void)
{
    char dir[] = "/tmp/qru-no-modules-XXXXXX";
    if (!mkdtemp(dir)) {
        CHECK(0, "mkdtemp failed");
        return;
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        setenv("QRU_MODULE_DIR", dir, 1);
        const qru_backend gpu[] = {QRU_BACKEND_CUDA, QRU_BACKEND_OPENCL};
        for (int i = 0; i < 2; ++i) {
            if (!qru_backend_compiled(gpu[i]))
                continue;
            qru_context *ctx = NULL;
            int st = qru_context_create(gpu[i], &ctx);
            const char *why = qru_last_error(NULL);
            printf("without modules, %s: %d: %s\n", qru_backend_name(gpu[i]),
                   st, why);
            CHECK(st == QRU_ERR_BACKEND_UNAVAILABLE && !ctx,
                  "status %d, ctx %p", st, (void *)ctx);
            CHECK((strstr(why, "was not found") && strstr(why, dir)) ||
                      strstr(why, ": no "),
                  "the reason names neither the directory nor a driver");
            char line[512];
            st = qru_backend_info(gpu[i], line, sizeof line);
            CHECK(st == QRU_ERR_BACKEND_UNAVAILABLE, "info: status %d", st);
            CHECK(strstr(why, line) != NULL,
                  "info's text '%s' is not the error's", line);
        }
        fflush(stdout);
        _exit(failures ? 1 : 0);
    }
    int ws = 0;
    CHECK(pid > 0 && waitpid(pid, &ws, 0) == pid && WIFEXITED(ws) &&
              WEXITSTATUS(ws) == 0,
          "the child without modules failed (status %#x)", ws);
    rmdir(dir);
}

int main(void)
{
#ifndef __linux__
    printf("SKIP: /proc/self/maps is Linux's\n");
    return 77;
#endif
    missing_modules();
    none_mapped("at start");

    /* the CPU backend maps nothing of the GPU backends */
    qru_context *cpu = NULL;
    CHECK(qru_context_create(QRU_BACKEND_CPU, &cpu) == 0, "CPU context");
    qru_context_destroy(cpu);
    char line[512];
    int st = qru_backend_info(QRU_BACKEND_CPU, line, sizeof line);
    printf("cpu: %d: %s\n", st, line);
    CHECK(st == 0 && strstr(line, "BLAS") && strstr(line, "LAPACKE") &&
              strstr(line, "[CPU; single yes, double yes]"),
          "cpu info");
    none_mapped("after a CPU context");

    /* the argument checks */
    CHECK(qru_backend_info((qru_backend)42, line, sizeof line) == -1, "-1");
    CHECK(strstr(qru_last_error(NULL), "argument 1"), "-1's text");
    CHECK(qru_backend_info(QRU_BACKEND_CPU, NULL, 8) == -2, "-2");
    CHECK(qru_backend_info(QRU_BACKEND_CPU, line, 0) == -3, "-3");
    /* a short buffer: the line cut, terminated */
    char small[8];
    CHECK(qru_backend_info(QRU_BACKEND_CPU, small, sizeof small) == 0 &&
              strlen(small) == sizeof small - 1,
          "cut to %zu bytes: '%s'", sizeof small, small);
    none_mapped("after the argument checks");

    if (qru_backend_compiled(QRU_BACKEND_OPENCL)) {
        qru_context *ctx = NULL;
        st = qru_context_create(QRU_BACKEND_OPENCL, &ctx);
        const char *why = qru_last_error(NULL);
        printf("opencl context: %d%s%s\n", st, st ? ": " : "", st ? why : "");
        CHECK(st == 0 || (st == QRU_ERR_BACKEND_UNAVAILABLE &&
                          (mapped(opencl_libs) || strstr(why, ": no "))),
              "an OpenCL context fails without a reason");
        if (st == 0) {
            CHECK(mapped(opencl_libs), "libqru_opencl is not mapped");
            CHECK(mapped(opencl_libs + 1), "libOpenCL is not mapped");
            no_cuda("after an OpenCL context", 0);
            qru_context_destroy(ctx);
            st = qru_backend_info(QRU_BACKEND_OPENCL, line, sizeof line);
            printf("opencl: %d: %s\n", st, line);
            CHECK(st == 0 && strstr(line, "module ") &&
                      strstr(line, "libqru_opencl"),
                  "opencl info");
        }
    }

    if (qru_backend_compiled(QRU_BACKEND_CUDA)) {
        qru_context *ctx = NULL;
        st = qru_context_create(QRU_BACKEND_CUDA, &ctx);
        const char *why = qru_last_error(NULL);
        printf("cuda context: %d%s%s\n", st, st ? ": " : "", st ? why : "");
        if (st == 0) {
            CHECK(mapped(cuda_libs), "libqru_cuda is not mapped");
            CHECK(mapped(cuda_libs + 1), "libcudart is not mapped");
            qru_context_destroy(ctx);
        } else {
            CHECK(st == QRU_ERR_BACKEND_UNAVAILABLE && strlen(why) > 20,
                  "a CUDA context fails without a reason");
            if (strstr(why, "no CUDA driver"))
                no_cuda("without a CUDA driver", 0);
        }
        st = qru_backend_info(QRU_BACKEND_CUDA, line, sizeof line);
        printf("cuda: %d: %s\n", st, line);
        CHECK(st == 0 ? strstr(line, "libqru_cuda") != NULL
                      : strlen(line) > 20,
              "cuda info");
    }

    st = qru_backend_info(QRU_BACKEND_AUTO, line, sizeof line);
    printf("auto: %d: %s\n", st, line);
    CHECK(st == 0 && (strncmp(line, "cpu: ", 5) == 0 ||
                      strncmp(line, "cuda: ", 6) == 0 ||
                      strncmp(line, "opencl: ", 8) == 0),
          "auto info names the backend it picks");

    printf("%s\n", failures ? "FAILED" : "passed");
    return failures ? 1 : 0;
}
