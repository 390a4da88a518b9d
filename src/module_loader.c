/*
 * The backend modules (qru_module.h): where libqru looks for them and how
 * it loads them.
 *
 * A module is loaded at the first context of its backend, under a lock,
 * and stays loaded.  Before the CUDA module, the loader opens the CUDA
 * driver library (Linux: libcuda.so.1, by name, as the CUDA runtime does
 * at its first call): on a machine without a driver this says "no CUDA
 * driver" without mapping the toolkit's libraries.  (The OpenCL module
 * links the ICD loader libOpenCL.so.1 itself, wherever its run path finds
 * it; a missing one is the dynamic loader's text.)  Then the module file
 * is looked for, in order,
 *  - only in the directory QRU_MODULE_DIR when that variable is set
 *    (tuning.c reads it);
 *  - otherwise in the directory of the file that holds this code
 *    (libqru.so, or the Python extension or program a static libqru is
 *    linked into) and in its subdirectory qru/; in the tests' static copy
 *    qru_internal also in its parent directory (the build tree's root,
 *    for the programs of tests/ and bench/, wherever the tree was
 *    carried) and in the build tree it was configured in
 *    (QRU_MODULE_BUILD_DIR); then in the install directory
 *    (QRU_MODULE_INSTALL_DIR, <libdir>/qru).
 * The first file that exists is loaded (a failure there is reported, not
 * passed over).  Every failure is QRU_ERR_BACKEND_UNAVAILABLE with its
 * reason recorded: not compiled in, no driver, module not found (with the
 * directories searched), not loadable (the loader's text: a missing
 * vendor library, say), or built for another qru.
 */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "qru_module.h"
#include "../opencl/qru_opencl.h"

#ifndef QRU_MODULE_PREFIX
#define QRU_MODULE_PREFIX "lib"
#endif
#ifndef QRU_MODULE_SUFFIX
#define QRU_MODULE_SUFFIX ".so"
#endif
#ifdef __linux__
#define QRU_CUDA_DRIVER "libcuda.so.1"
#else
#define QRU_CUDA_DRIVER NULL
#endif

enum { PATH_LEN = 4096 };

static struct slot {
    qru_backend b;
    int built;
    const char *file;   /* the module's file name */
    const char *driver; /* the driver library opened first, or NULL */
    const char *driver_name;
    const qru_backend_module *mod; /* once loaded */
    char path[PATH_LEN];           /* where it was loaded from */
} slots[] = {
    {QRU_BACKEND_CUDA,
#ifdef QRU_HAVE_CUDA
     1,
#else
     0,
#endif
     QRU_MODULE_PREFIX "qru_cuda" QRU_MODULE_SUFFIX, QRU_CUDA_DRIVER,
     "CUDA driver", NULL, ""},
    {QRU_BACKEND_OPENCL,
#ifdef QRU_HAVE_OPENCL
     1,
#else
     0,
#endif
     QRU_MODULE_PREFIX "qru_opencl" QRU_MODULE_SUFFIX, NULL, NULL, NULL, ""},
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static struct slot *slot_of(qru_backend b)
{
    for (size_t i = 0; i < sizeof slots / sizeof slots[0]; ++i)
        if (slots[i].b == b)
            return &slots[i];
    return NULL;
}

int qru_module_built(qru_backend b)
{
    const struct slot *s = slot_of(b);
    return b == QRU_BACKEND_CPU || (s && s->built);
}

const char *qru_module_path(qru_backend b)
{
    const struct slot *s = slot_of(b);
    return s && s->mod ? s->path : "";
}

static const qru_module_host *host_table(void)
{
    static qru_module_host h;
    h.version = QRU_VERSION_STRING;
    h.host_size = sizeof h;
    h.context_size = sizeof(qru_context);
    h.ops_size = sizeof(qru_backend_ops);
    h.matrix_size = sizeof(qru_matrix);
    h.failv = qru_failv;
    h.wy_left_gemms = qru_wy_left_gemms;
    h.panel_qr_tp_gather = qru_panel_qr_tp_gather;
#define QRU_HOST_SET_(name, params, args, need, stat)                        \
    QRU_HOST_SET_##need(name)
#define QRU_HOST_SET_REQ(name)
#define QRU_HOST_SET_CAP(name)
#define QRU_HOST_SET_OPT(name) h.ref_##name = qru_ref_##name;
    QRU_OPS(QRU_HOST_SET_)
    return &h;
}

/* The directory of the file that holds this code into dir ("" when it
 * cannot be told). */
static void own_dir(char *dir, size_t n)
{
    Dl_info info;
    char file[PATH_MAX];
    dir[0] = '\0';
    if (!dladdr((void *)&own_dir, &info) || !info.dli_fname ||
        !strchr(info.dli_fname, '/') || !realpath(info.dli_fname, file))
        return;
    size_t len = (size_t)(strrchr(file, '/') - file);
    if (len == 0)
        len = 1; /* the root directory */
    if (len < n) {
        memcpy(dir, file, len);
        dir[len] = '\0';
    }
}

/* The directories to search, in order (at most 6). */
static int search_dirs(char dirs[][PATH_LEN])
{
    int nd = 0;
    const char *env = qru_env_module_dir();
    if (env) {
        snprintf(dirs[nd++], PATH_LEN, "%s", env);
        return nd;
    }
    char own[PATH_LEN - 8]; /* room for "/qru" */
    own_dir(own, sizeof own);
    if (own[0]) {
        snprintf(dirs[nd++], PATH_LEN, "%s", own);
        snprintf(dirs[nd++], PATH_LEN, "%s/qru", own);
#ifdef QRU_MODULE_BUILD_DIR
        char *slash = strrchr(own, '/');
        if (slash && slash != own) {
            *slash = '\0'; /* the parent */
            snprintf(dirs[nd++], PATH_LEN, "%s", own);
        }
#endif
    }
#ifdef QRU_MODULE_BUILD_DIR
    snprintf(dirs[nd++], PATH_LEN, "%s", QRU_MODULE_BUILD_DIR);
#endif
#ifdef QRU_MODULE_INSTALL_DIR
    snprintf(dirs[nd++], PATH_LEN, "%s", QRU_MODULE_INSTALL_DIR);
#endif
    return nd;
}

/* Loads the module of slot s (lock held). */
static int load(struct slot *s)
{
    const char *name = qru_backend_name(s->b);
    if (s->driver && !dlopen(s->driver, RTLD_NOW | RTLD_LOCAL)) {
        const char *e = dlerror();
        return qru_fail(QRU_ERR_BACKEND_UNAVAILABLE, "no %s (%s)",
                        s->driver_name, e ? e : s->driver);
    }
    char dirs[6][PATH_LEN], path[2 * PATH_LEN];
    int nd = search_dirs(dirs);
    struct stat sb;
    for (int i = 0; i < nd; ++i) {
        int len = snprintf(path, sizeof path, "%s/%s", dirs[i], s->file);
        if (len < 0 || (size_t)len >= sizeof s->path || stat(path, &sb) != 0)
            continue;
        void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (!h) {
            const char *e = dlerror();
            return qru_fail(QRU_ERR_BACKEND_UNAVAILABLE,
                            "the %s backend's module %s cannot be loaded: %s",
                            name, path, e ? e : "?");
        }
        qru_backend_module_fn *entry = NULL;
        /* (a data pointer converted to a function pointer: POSIX's dlsym) */
        *(void **)&entry = dlsym(h, QRU_MODULE_ENTRY);
        const qru_backend_module *m = entry ? entry(host_table()) : NULL;
        if (!m || !m->ops || m->ops->id != s->b)
            /* left loaded: its libraries may not take an unload */
            return qru_fail(QRU_ERR_BACKEND_UNAVAILABLE,
                            "the %s backend's module %s was built for "
                            "another qru (this is qru %s)",
                            name, path, QRU_VERSION_STRING);
        memcpy(s->path, path, (size_t)len + 1);
        s->mod = m;
        return 0;
    }
    char where[1024] = "";
    size_t used = 0;
    for (int i = 0; i < nd && used < sizeof where; ++i)
        used += (size_t)snprintf(where + used, sizeof where - used, "%s%s",
                                 i ? ", " : "", dirs[i]);
    return qru_fail(QRU_ERR_BACKEND_UNAVAILABLE,
                    "the %s backend's module %s was not found (searched %s%s)",
                    name, s->file, qru_env_module_dir() ? "QRU_MODULE_DIR = " : "",
                    nd ? where : "no directory");
}

int qru_module_load(qru_backend b, const qru_backend_ops **ops)
{
    if (b == QRU_BACKEND_CPU) {
        *ops = &qru_cpu_ops;
        return 0;
    }
    struct slot *s = slot_of(b);
    if (!s || !s->built)
        return qru_fail(QRU_ERR_BACKEND_UNAVAILABLE,
                        "the %s backend is not compiled into this build of "
                        "qru",
                        qru_backend_name(b));
    pthread_mutex_lock(&lock);
    int st = s->mod ? 0 : load(s);
    if (st == 0)
        *ops = s->mod->ops;
    pthread_mutex_unlock(&lock);
    return st;
}

/* ---- the OpenCL accessors of opencl/qru_opencl.h ---- */

/* The loaded OpenCL module when ctx is an OpenCL context, else NULL (an
 * OpenCL context exists only after its module was loaded). */
static const qru_backend_module *opencl_of(const qru_context *ctx)
{
    if (!ctx || ctx->backend != QRU_BACKEND_OPENCL)
        return NULL;
    return slot_of(QRU_BACKEND_OPENCL)->mod;
}

const char *qru_opencl_build_log(const qru_context *ctx)
{
    const qru_backend_module *m = opencl_of(ctx);
    return m ? m->opencl_build_log(ctx) : "";
}

const qru_ocl_tuning *qru_opencl_tuning(const qru_context *ctx)
{
    const qru_backend_module *m = opencl_of(ctx);
    return m ? m->opencl_tuning(ctx) : NULL;
}
