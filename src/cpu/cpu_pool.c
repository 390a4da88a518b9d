/*
 * The CPU backend's worker threads for its batched ops (cpu_pool.h).
 * One job at a time (a context is used by one thread at a time).  The
 * caller sets the job (its function, arguments, problems and chunk) and
 * publishes its number, open, in one atomic word; then it takes chunks
 * of problems from a shared counter until none is left, closes the job
 * and waits for the workers that joined it.  A worker joins an open job
 * by counting itself active and finding the word unchanged; it then takes
 * chunks as the caller does.  So a worker that wakes late takes fewer
 * chunks, or none (the caller never waits for a thread that has not
 * joined): a sleeping thread takes tens of microseconds to wake, and a
 * virtual machine (the 2-core CI machine) much longer where its CPUs
 * have idled.  A thread that waits polls for a while, yielding the CPU,
 * before it sleeps on a condition variable.
 */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "cpu_pool.h"

typedef struct cpu_worker {
    struct qru_cpu_pool *pool;
    pthread_t th;
    int id;              /* 1 .. QRU_CPU_MAX_THREADS - 1: joins jobs of
                            more than id threads */
    unsigned long seen;  /* the number of the last job it looked at */
    void *scratch;       /* its work, bytes long */
    size_t bytes;
} cpu_worker;

/* The job word: the job's number, whether it is open (chunks may be
 * left), the threads it takes (the caller and workers 1 .. threads - 1). */
#define JOB_THREADS_BITS 9
#define JOB_NUMBER(j) ((j) >> (JOB_THREADS_BITS + 1))
#define JOB_OPEN(j) ((int)(((j) >> JOB_THREADS_BITS) & 1u))
#define JOB_THREADS(j) ((int)((j) & ((1ul << JOB_THREADS_BITS) - 1)))
#define JOB_WORD(num, open, threads)                                         \
    (((unsigned long)(num) << (JOB_THREADS_BITS + 1)) |                      \
     ((unsigned long)(open) << JOB_THREADS_BITS) | (unsigned long)(threads))

struct qru_cpu_pool {
    unsigned forks; /* fork_count when it was made */
    pthread_mutex_t mu;
    pthread_cond_t wake, done;
    int started; /* workers w[0 .. started - 1] are running */
    /* the job: set before its word is published, unchanged until the
     * workers that joined it are done */
    qru_cpu_range_fn fn;
    const void *args;
    int count, chunk;
    atomic_long next;    /* the first problem of the next chunk */
    atomic_ulong job;    /* the job word */
    atomic_int active;   /* workers in a job (or backing out of one) */
    atomic_int sleepers; /* workers asleep on wake (or about to be) */
    atomic_int waiting;  /* the caller asleep on done (or about to be) */
    atomic_int quit;
    cpu_worker w[QRU_CPU_MAX_THREADS - 1];
};

/* How long a waiting thread polls before it sleeps: a worker for the
 * next job after one, the caller for the workers in a job. */
#define CPU_POLL_SECONDS 200e-6

/* Poll k (0, 1, ...) of a wait: yields the CPU; 1 when CPU_POLL_SECONDS
 * have passed since poll 0 (*t0). */
static int poll_over(unsigned k, double *t0)
{
    if (k % 16 == 0) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        double t = (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
        if (k == 0)
            *t0 = t;
        else if (t - *t0 > CPU_POLL_SECONDS)
            return 1;
    }
    sched_yield();
    return 0;
}

/* The chunks of the job, taken in turn, each run in work. */
static void run_chunks(qru_cpu_pool *p, qru_ptr work)
{
    for (;;) {
        long b0 = atomic_fetch_add(&p->next, (long)p->chunk);
        if (b0 >= p->count)
            return;
        long cnt = p->count - b0 < p->chunk ? p->count - b0 : p->chunk;
        p->fn(p->args, (int)b0, (int)cnt, work);
    }
}

/* A worker leaves a job (or backs out of one); the last one wakes the
 * caller where it sleeps. */
static void leave(qru_cpu_pool *p)
{
    if (atomic_fetch_sub(&p->active, 1) == 1 && atomic_load(&p->waiting)) {
        pthread_mutex_lock(&p->mu);
        pthread_cond_signal(&p->done);
        pthread_mutex_unlock(&p->mu);
    }
}

static void *worker_main(void *arg)
{
    cpu_worker *w = arg;
    qru_cpu_pool *p = w->pool;
    for (;;) {
        /* a job after the one seen: polled for, then asleep on wake (the
         * caller broadcasts where a sleeper counted itself before the job
         * was published; otherwise this thread sees the job) */
        double t0 = 0;
        unsigned k = 0;
        while (JOB_NUMBER(atomic_load(&p->job)) == w->seen &&
               !poll_over(k++, &t0))
            ;
        if (JOB_NUMBER(atomic_load(&p->job)) == w->seen) {
            pthread_mutex_lock(&p->mu);
            atomic_fetch_add(&p->sleepers, 1);
            while (JOB_NUMBER(atomic_load(&p->job)) == w->seen)
                pthread_cond_wait(&p->wake, &p->mu);
            atomic_fetch_sub(&p->sleepers, 1);
            pthread_mutex_unlock(&p->mu);
        }
        if (atomic_load(&p->quit))
            break;
        unsigned long j = atomic_load(&p->job);
        w->seen = JOB_NUMBER(j);
        if (!JOB_OPEN(j) || w->id >= JOB_THREADS(j))
            continue; /* not for this worker: its fields may change */
        /* join: counted active while the word is unchanged, the caller
         * waits for this worker; else it has closed the job (and may
         * have returned), so back out without touching it */
        atomic_fetch_add(&p->active, 1);
        if (atomic_load(&p->job) == j)
            run_chunks(p, (qru_ptr){w->scratch, 0});
        leave(p);
    }
    return NULL;
}

/* The forks this process has seen (pthread_atfork, in the child): a
 * pool made before a fork has no threads in the child. */
static atomic_uint fork_count;
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;
static void count_fork(void) { atomic_fetch_add(&fork_count, 1); }
static void watch_forks(void) { pthread_atfork(NULL, NULL, count_fork); }

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
    pthread_once(&fork_once, watch_forks);
    qru_cpu_pool *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->forks = atomic_load(&fork_count);
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
    w->seen = JOB_NUMBER(atomic_load(&p->job));
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

/* Sets the job word to the next job's (open or closed, taking threads
 * threads) and wakes the workers asleep. */
static void publish(qru_cpu_pool *p, int open, int threads)
{
    unsigned long num = JOB_NUMBER(atomic_load(&p->job)) + 1;
    atomic_store(&p->job, JOB_WORD(num, open, threads));
    if (atomic_load(&p->sleepers) > 0) {
        pthread_mutex_lock(&p->mu);
        pthread_cond_broadcast(&p->wake);
        pthread_mutex_unlock(&p->mu);
    }
}

int qru_cpu_pool_run(qru_cpu_pool **pool, int nt, int count,
                     size_t work_bytes, qru_cpu_range_fn fn,
                     const void *args, qru_ptr work0)
{
    if (nt > count)
        nt = count;
    if (nt > QRU_CPU_MAX_THREADS)
        nt = QRU_CPU_MAX_THREADS;
    if (*pool && (*pool)->forks != atomic_load(&fork_count)) {
        /* made before a fork: its threads are the parent's (its lock and
         * conditions in any state); left as it is, a new one made */
        qru_cpu_pool_free(*pool);
        *pool = NULL;
    }
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
    p->fn = fn;
    p->args = args;
    p->count = count;
    p->chunk = count / (QRU_CPU_CHUNKS * have);
    if (p->chunk < 1)
        p->chunk = 1;
    atomic_store(&p->next, 0);
    publish(p, 1, have);
    run_chunks(p, work0);
    /* closed: no worker joins now; those that joined are polled for,
     * then waited for asleep on done (the last signals where it sees
     * waiting) */
    unsigned long j = atomic_load(&p->job);
    atomic_store(&p->job, JOB_WORD(JOB_NUMBER(j), 0, have));
    double t0 = 0;
    unsigned k = 0;
    while (atomic_load(&p->active) > 0 && !poll_over(k++, &t0))
        ;
    if (atomic_load(&p->active) > 0) {
        pthread_mutex_lock(&p->mu);
        atomic_store(&p->waiting, 1);
        while (atomic_load(&p->active) > 0)
            pthread_cond_wait(&p->done, &p->mu);
        atomic_store(&p->waiting, 0);
        pthread_mutex_unlock(&p->mu);
    }
    return have;
}

void qru_cpu_pool_free(qru_cpu_pool *p)
{
    if (!p)
        return;
    if (p->forks != atomic_load(&fork_count)) {
        /* a child's copy of a pool made before the fork: no threads to
         * stop, a lock and conditions that are not to be touched; only
         * its memory freed */
        for (int i = 0; i < QRU_CPU_MAX_THREADS - 1; ++i)
            free(p->w[i].scratch);
        free(p);
        return;
    }
    atomic_store(&p->quit, 1);
    publish(p, 0, 0);
    for (int i = 0; i < p->started; ++i)
        pthread_join(p->w[i].th, NULL);
    for (int i = 0; i < QRU_CPU_MAX_THREADS - 1; ++i)
        free(p->w[i].scratch);
    pthread_cond_destroy(&p->done);
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->mu);
    free(p);
}
