/*
 * The CPU backend's threads for its batched ops (cpu_pool.c): a pool of
 * worker threads owned by a context (its ctx->impl), started at the first
 * batch that runs on more than one thread and joined when the context is
 * destroyed.  A batch of count independent problems on nt threads is cut
 * into contiguous chunks of about count / (QRU_CPU_CHUNKS nt) problems,
 * which the calling thread and the workers take in turn from a shared
 * counter (a worker that wakes late takes fewer); the caller runs its
 * chunks in the op's own work, each worker in a scratch buffer of its
 * own.  Each problem runs the same code on the same data whichever thread
 * takes it, so the results are those of one thread bit for bit.  The
 * pool never fails a batch: where a thread or a scratch buffer cannot be
 * had, fewer threads run it (at worst the caller alone).  In the child of
 * a fork(), a pool made before it (whose threads are the parent's) is
 * left alone and replaced by a new one.
 */
#ifndef QRU_CPU_POOL_H
#define QRU_CPU_POOL_H

#include <stddef.h>

#include "../qru_internal.h"

/* The most threads a batch runs on (QRU_TUNE_BATCH_THREADS's bound), and
 * the most its default (0) takes: the online CPUs the process may run
 * on, at most QRU_CPU_AUTO_THREADS. */
#define QRU_CPU_MAX_THREADS 256
#define QRU_CPU_AUTO_THREADS 16
/* Chunks a thread of a batch, on average. */
#define QRU_CPU_CHUNKS 4

/* Problems b0 .. b0 + cnt - 1 of a batched op whose arguments are args;
 * work: one problem's work (the op's own for part 0). */
typedef void (*qru_cpu_range_fn)(const void *args, int b0, int cnt,
                                 qru_ptr work);

typedef struct qru_cpu_pool qru_cpu_pool;

/* The threads of the default (QRU_TUNE_BATCH_THREADS = 0): the CPUs online
 * and in the process's affinity mask, at most QRU_CPU_AUTO_THREADS; at
 * least 1. */
int qru_cpu_auto_threads(void);

/* Runs fn over the count problems on nt threads (nt >= 1; the caller and
 * nt - 1 workers of *pool, made at the first use and added as needed;
 * *pool NULL: none yet), each worker with scratch of work_bytes (kept and
 * grown between calls); work0 is the caller's.  Returns the threads the
 * batch was open to (nt, or fewer where threads or memory could not be
 * had; a worker that woke late may have run none of it). */
int qru_cpu_pool_run(qru_cpu_pool **pool, int nt, int count,
                     size_t work_bytes, qru_cpu_range_fn fn,
                     const void *args, qru_ptr work0);

/* Stops and joins the workers and frees the pool (NULL: nothing). */
void qru_cpu_pool_free(qru_cpu_pool *pool);

#endif /* QRU_CPU_POOL_H */
