/*
 * The CPU backend's worker threads for its batched ops (cpu_pool.h).
 * One job at a time (a context is used by one thread at a time): the
 * caller posts it under the pool's lock, wakes every worker, runs part 0
 * itself and waits until the workers of the other parts are done.
 */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "cpu_pool.h"

typedef struct cpu_worker {
    struct qru_cpu_pool *pool;
    pthread_t th;
    int id;              /* the part it runs: 1 .. QRU_CPU_MAX_THREADS - 1 */
    unsigned long seen;  /* the last job it has looked at */
    void *scratch;       /* its work, bytes long */
    size_t bytes;
} cpu_worker;

struct qru_cpu_pool {
    pthread_mutex_t mu;
    pthread_cond_t wake, done;
    int started; /* workers w[0 .. started - 1] are running */
    int quit;
    /* the job: its number, the function and its arguments, the problems,
     * the parts and the workers' parts not yet done */
    unsigned long gen;
    qru_cpu_range_fn fn;
    const void *args;
    int count, parts, left;
    cpu_worker w[QRU_CPU_MAX_THREADS - 1];
};

/* The first problem of part i of count problems in parts parts. */
static int part_start(int count, int i, int parts)
{
    return (int)((long long)count * i / parts);
}

static void *worker_main(void *arg)
{
    cpu_worker *w = arg;
    qru_cpu_pool *p = w->pool;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->quit && p->gen == w->seen)
            pthread_cond_wait(&p->wake, &p->mu);
        if (p->quit)
            break;
        w->seen = p->gen;
        if (w->id >= p->parts)
            continue;
        qru_cpu_range_fn fn = p->fn;
        const void *args = p->args;
        int b0 = part_start(p->count, w->id, p->parts),
            b1 = part_start(p->count, w->id + 1, p->parts);
        qru_ptr work = {w->scratch, 0};
        pthread_mutex_unlock(&p->mu);
        fn(args, b0, b1 - b0, work);
        pthread_mutex_lock(&p->mu);
        if (--p->left == 0)
            pthread_cond_signal(&p->done);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

static int auto_threads = 1;
static pthread_once_t auto_once = PTHREAD_ONCE_INIT;

static void count_cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
#ifdef CPU_COUNT
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        long a = CPU_COUNT(&set);
        if (a > 0 && (n < 1 || a < n))
            n = a;
    }
#endif
    auto_threads = n < 1                      ? 1
                   : n > QRU_CPU_AUTO_THREADS ? QRU_CPU_AUTO_THREADS
                                              : (int)n;
}

int qru_cpu_auto_threads(void)
{
    pthread_once(&auto_once, count_cpus);
    return auto_threads;
}

static qru_cpu_pool *pool_new(void)
{
    qru_cpu_pool *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    if (pthread_mutex_init(&p->mu, NULL) != 0) {
        free(p);
        return NULL;
    }
    if (pthread_cond_init(&p->wake, NULL) != 0) {
        pthread_mutex_destroy(&p->mu);
        free(p);
        return NULL;
    }
    if (pthread_cond_init(&p->done, NULL) != 0) {
        pthread_cond_destroy(&p->wake);
        pthread_mutex_destroy(&p->mu);
        free(p);
        return NULL;
    }
    return p;
}

/* Worker i (0-based) ready for a job with work_bytes of scratch: its
 * scratch grown, its thread started (every signal blocked in it, so that
 * the caller's threads keep receiving them).  0, or -1 where it could
 * not be had.  No job runs meanwhile. */
static int worker_ready(qru_cpu_pool *p, int i, size_t work_bytes)
{
    cpu_worker *w = &p->w[i];
    if (w->bytes < work_bytes || !w->scratch) {
        size_t b = work_bytes > 64 ? (work_bytes + 63) / 64 * 64 : 64;
        void *s = NULL;
        if (posix_memalign(&s, 64, b) != 0)
            return -1;
        free(w->scratch);
        w->scratch = s;
        w->bytes = b;
    }
    if (i < p->started)
        return 0;
    w->pool = p;
    w->id = i + 1;
    w->seen = p->gen;
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int st = pthread_create(&w->th, NULL, worker_main, w);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (st != 0)
        return -1;
    p->started = i + 1;
    return 0;
}

int qru_cpu_pool_run(qru_cpu_pool **pool, int nt, int count,
                     size_t work_bytes, qru_cpu_range_fn fn,
                     const void *args, qru_ptr work0)
{
    if (nt > count)
        nt = count;
    if (nt > QRU_CPU_MAX_THREADS)
        nt = QRU_CPU_MAX_THREADS;
    if (nt > 1 && !*pool)
        *pool = pool_new();
    qru_cpu_pool *p = *pool;
    int have = 1;
    while (p && have < nt && worker_ready(p, have - 1, work_bytes) == 0)
        ++have;
    if (have <= 1) {
        fn(args, 0, count, work0);
        return 1;
    }
    pthread_mutex_lock(&p->mu);
    p->fn = fn;
    p->args = args;
    p->count = count;
    p->parts = have;
    p->left = have - 1;
    ++p->gen;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);
    fn(args, 0, part_start(count, 1, have), work0);
    pthread_mutex_lock(&p->mu);
    while (p->left > 0)
        pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
    return have;
}

void qru_cpu_pool_free(qru_cpu_pool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    p->quit = 1;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);
    for (int i = 0; i < p->started; ++i)
        pthread_join(p->w[i].th, NULL);
    for (int i = 0; i < QRU_CPU_MAX_THREADS - 1; ++i)
        free(p->w[i].scratch);
    pthread_cond_destroy(&p->done);
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->mu);
    free(p);
}
