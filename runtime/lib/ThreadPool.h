/*===- ThreadPool.h - Entry point of the parallel regions' thread pool ----===*
 *
 * What runtime/lib/ThreadPool.c defines for the code that calls it besides
 * the generated code (which declares it itself, pb-outline-parallel-regions):
 * the JIT, which resolves generated code's calls to the copy built into it,
 * and the pool's own test.
 *
 *===----------------------------------------------------------------------===*/

#ifndef POLYBLOCKS_RUNTIME_THREADPOOL_H
#define POLYBLOCKS_RUNTIME_THREADPOOL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A parallel region: its part for thread number `thread` (0 is the caller). */
typedef void (*PBRegionFn)(void *context, int32_t thread);

/* Runs `fn(context, thread)` on the calling thread as thread 0 and on each
 * worker that joins while it runs; returns when all of them have. */
void __pb_parallel_run_v1(PBRegionFn fn, void *context);

#ifdef __cplusplus
}
#endif

#endif /* POLYBLOCKS_RUNTIME_THREADPOOL_H */
