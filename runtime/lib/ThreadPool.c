/*===- ThreadPool.c - The threads of generated CPU code's parallel regions ===*
 *
 * Generated CPU code runs each parallel region (pb-outline-parallel-regions)
 * as a function `region(context, thread)` through __pb_parallel_run_v1. The
 * calling thread runs it as thread 0 at once; the pool's workers are woken
 * and each that wakes while the region is still running enters it with the
 * next thread number. When the caller's own run returns, the region is closed
 * to late workers and the caller waits only for the workers that entered.
 * A worker that has not been scheduled yet (another thread pool of the
 * process spinning on its core) holds nothing up: the region's parts are
 * claimed chunk by chunk (pb-barrier-free-worksharing), so the threads that
 * did enter compute everything, and a worker that wakes late finds the region
 * closed and goes back to waiting. (A fork-join runtime's join waits for
 * every thread of the team, started or not.)
 *
 * One pool per process: the entry point and the pool's state are weak
 * definitions, linked into every object PolyBlocks emits (and built into the
 * tools that run code in-process), so the copies merge at link time or, for
 * shared libraries loaded into the global scope, at load time (libraries
 * loaded RTLD_LOCAL, as Python's ctypes does, keep a pool each). `_v1` names
 * this layout of the state.
 *
 * Threads: $PB_NUM_THREADS, else $OMP_NUM_THREADS, else the CPUs this process
 * may run on. Idle workers spin kPBSpinNanoseconds for the next region, then
 * sleep on a futex. A region started while another thread of the process
 * runs one (or from inside one) runs on the calling thread alone. After
 * fork(), the child starts its own workers. Every symbol here starts with
 * `__pb_` (those of the generated helpers too), so that an output of one
 * function (`--function`) keeps them.
 *
 *===----------------------------------------------------------------------===*/

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "ThreadPool.h"

/* Long enough to span the sequential code between two regions of one call
 * and the gap between two calls in a loop; short enough not to hold a core
 * that another thread pool of the process wants once calls stop. */
static const int64_t kPBSpinNanoseconds = 1000000;

/* The gate: the region's generation (high 32 bits), whether it is closed,
 * and how many workers entered (low bits). */
static const uint64_t kPBGateClosed = 1u << 31;
static const uint64_t kPBGateCount = (1u << 31) - 1;

struct PBPool {
  /* Written by the caller, once per region. */
  _Alignas(64) _Atomic uint32_t generation; /* futex word */
  _Atomic uint64_t gate;
  _Atomic(PBRegionFn) fn;
  _Atomic(void *) context;
  _Atomic int32_t threads;
  _Atomic uint32_t busy; /* a caller holds the pool */
  /* Written by the workers. */
  _Alignas(64) _Atomic uint32_t exited;
  _Atomic uint32_t sleepers;
  /* Starting workers. */
  _Alignas(64) pthread_mutex_t lock;
  int32_t started;
  int32_t team; /* 0: not read yet */
  int32_t forkHandlers;
};

__attribute__((weak)) struct PBPool __pb_thread_pool_v1 = {
    .lock = PTHREAD_MUTEX_INITIALIZER};

static void __pb_pool_pause(void) { __builtin_ia32_pause(); }

static int64_t __pb_pool_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static void __pb_pool_futex_wait(_Atomic uint32_t *word, uint32_t value) {
  syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT_PRIVATE, value, NULL, NULL,
          0);
}

static void __pb_pool_futex_wake_all(_Atomic uint32_t *word) {
  syscall(SYS_futex, (uint32_t *)word, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL,
          0);
}

static int32_t __pb_pool_read_threads(const char *name) {
  const char *text = getenv(name);
  if (!text || !*text)
    return 0;
  char *end;
  long value = strtol(text, &end, 10);
  return (*end == '\0' || *end == ',') && value > 0 && value < 4096
             ? (int32_t)value
             : 0;
}

static int32_t __pb_pool_team_size(void) {
  int32_t threads = __pb_pool_read_threads("PB_NUM_THREADS");
  if (!threads)
    threads = __pb_pool_read_threads("OMP_NUM_THREADS");
  if (!threads) {
    cpu_set_t cpus;
    threads = sched_getaffinity(0, sizeof(cpus), &cpus) == 0
                  ? CPU_COUNT(&cpus)
                  : (int32_t)sysconf(_SC_NPROCESSORS_ONLN);
  }
  return threads > 0 ? threads : 1;
}

/* Returns the generation after `seen`, once there is one. */
static uint32_t __pb_pool_wait_for_region(struct PBPool *pool, uint32_t seen) {
  int64_t start = __pb_pool_now();
  for (unsigned spins = 1;; ++spins) {
    uint32_t now =
        atomic_load_explicit(&pool->generation, memory_order_acquire);
    if (now != seen)
      return now;
    if (spins % 64 == 0 && __pb_pool_now() - start > kPBSpinNanoseconds)
      break;
    __pb_pool_pause();
  }
  for (;;) {
    /* Either the caller sees this sleeper and wakes it, or this sees the
     * caller's new generation (both sequentially consistent). */
    atomic_fetch_add(&pool->sleepers, 1);
    if (atomic_load(&pool->generation) == seen)
      __pb_pool_futex_wait(&pool->generation, seen);
    atomic_fetch_sub(&pool->sleepers, 1);
    uint32_t now =
        atomic_load_explicit(&pool->generation, memory_order_acquire);
    if (now != seen)
      return now;
  }
}

static void *__pb_pool_worker(void *argument) {
  struct PBPool *pool = &__pb_thread_pool_v1;
  uint32_t seen = (uint32_t)(uintptr_t)argument;
  for (;;) {
    uint32_t generation = __pb_pool_wait_for_region(pool, seen);
    seen = generation;
    /* These may already be the next region's; then the gate's generation
     * differs and this worker does not enter. */
    PBRegionFn fn = atomic_load_explicit(&pool->fn, memory_order_relaxed);
    void *context = atomic_load_explicit(&pool->context, memory_order_relaxed);
    int32_t threads =
        atomic_load_explicit(&pool->threads, memory_order_relaxed);
    uint64_t gate = atomic_load_explicit(&pool->gate, memory_order_acquire);
    int entered = 0;
    while ((uint32_t)(gate >> 32) == generation && !(gate & kPBGateClosed) &&
           (int64_t)(gate & kPBGateCount) + 1 < threads) {
      if (atomic_compare_exchange_weak_explicit(&pool->gate, &gate, gate + 1,
                                                memory_order_acq_rel,
                                                memory_order_acquire)) {
        entered = 1;
        break;
      }
    }
    if (!entered)
      continue;
    fn(context, (int32_t)(gate & kPBGateCount) + 1);
    atomic_fetch_add_explicit(&pool->exited, 1, memory_order_release);
  }
  return NULL;
}

/* In a child of fork(), only the thread that forked exists. */
static void __pb_pool_forget_workers(void) {
  struct PBPool *pool = &__pb_thread_pool_v1;
  pthread_mutex_init(&pool->lock, NULL);
  pool->started = 0;
  atomic_store(&pool->sleepers, 0);
  atomic_store(&pool->busy, 0);
}

/* Starts the workers the team lacks; returns the team's size. */
static int32_t __pb_pool_start_workers(struct PBPool *pool) {
  pthread_mutex_lock(&pool->lock);
  if (!pool->team)
    pool->team = __pb_pool_team_size();
  if (!pool->forkHandlers)
    pool->forkHandlers =
        pthread_atfork(NULL, NULL, __pb_pool_forget_workers) == 0 ? 1 : -1;
  uint32_t generation = atomic_load(&pool->generation);
  while (pool->started < pool->team - 1) {
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    pthread_t thread;
    int failed = pthread_create(&thread, &attributes, __pb_pool_worker,
                                (void *)(uintptr_t)generation);
    pthread_attr_destroy(&attributes);
    if (failed) {
      /* The team is what could be started: later calls do not try again. */
      pool->team = pool->started + 1;
      break;
    }
    ++pool->started;
  }
  int32_t team = pool->started + 1;
  pthread_mutex_unlock(&pool->lock);
  return team;
}

__attribute__((weak)) void __pb_parallel_run_v1(PBRegionFn fn, void *context) {
  struct PBPool *pool = &__pb_thread_pool_v1;
  uint32_t idle = 0;
  if (!atomic_compare_exchange_strong(&pool->busy, &idle, 1)) {
    fn(context, 0);
    return;
  }
  int32_t threads = pool->started + 1;
  if (!pool->team || threads < pool->team)
    threads = __pb_pool_start_workers(pool);
  if (threads <= 1) {
    fn(context, 0);
    atomic_store_explicit(&pool->busy, 0, memory_order_release);
    return;
  }
  uint32_t generation =
      atomic_load_explicit(&pool->generation, memory_order_relaxed) + 1;
  atomic_store_explicit(&pool->fn, fn, memory_order_relaxed);
  atomic_store_explicit(&pool->context, context, memory_order_relaxed);
  atomic_store_explicit(&pool->threads, threads, memory_order_relaxed);
  atomic_store_explicit(&pool->exited, 0, memory_order_relaxed);
  atomic_store_explicit(&pool->gate, (uint64_t)generation << 32,
                        memory_order_release);
  atomic_store(&pool->generation, generation);
  if (atomic_load(&pool->sleepers))
    __pb_pool_futex_wake_all(&pool->generation);
  fn(context, 0);
  uint64_t gate = atomic_fetch_or_explicit(&pool->gate, kPBGateClosed,
                                           memory_order_acq_rel);
  uint32_t entered = (uint32_t)(gate & kPBGateCount);
  /* The workers that entered are running (they claimed their place). */
  for (unsigned spins = 1;
       atomic_load_explicit(&pool->exited, memory_order_acquire) != entered;
       ++spins) {
    if (spins % 1024 == 0)
      sched_yield();
    else
      __pb_pool_pause();
  }
  atomic_store_explicit(&pool->busy, 0, memory_order_release);
}
