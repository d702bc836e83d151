// The thread pool that generated CPU code runs its parallel regions on
// (runtime/lib/ThreadPool.c): every region runs on the caller as thread 0,
// the workers that enter get distinct thread numbers below the team's size,
// the caller returns only after every worker that entered has left, a
// region started inside another or beside another runs on its caller alone,
// and a forked child starts workers of its own. Run with more threads than
// cores and beside threads that spin on every core, where workers are late.
//
// RUN: %cc -std=c11 -O2 -Wall -Werror -pthread -I%pb-source-dir/runtime/lib %s %pb-source-dir/runtime/lib/ThreadPool.c -o %t
// RUN: env PB_NUM_THREADS=4 %t 4 | FileCheck %s
// RUN: env PB_NUM_THREADS=1 %t 1 | FileCheck %s --check-prefix=ONE
// RUN: env -u PB_NUM_THREADS OMP_NUM_THREADS=3 %t 3 | FileCheck %s --check-prefix=OMP

// CHECK: team 4
// CHECK: regions 20000 items 2000000 ok
// CHECK: contended regions 2000 items 200000 ok
// CHECK: nested ok
// CHECK: concurrent ok
// CHECK: child ok
// ONE: team 1
// ONE: regions 20000 items 2000000 ok
// OMP: team 3

#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ThreadPool.h"

enum { kItems = 100, kMaxThreads = 64 };

struct Work {
  _Atomic int64_t next; // items claimed, as the generated parts claim chunks
  _Atomic int64_t done[kItems];
  _Atomic int32_t entered[kMaxThreads];
  _Atomic int32_t inside; // threads in the region now
  _Atomic int32_t badThread;
  int32_t sawCallerBeforeReturn;
};

static void claimItems(void *context, int32_t thread) {
  struct Work *work = context;
  if (thread < 0 || thread >= kMaxThreads) {
    atomic_store(&work->badThread, 1);
    return;
  }
  atomic_fetch_add(&work->inside, 1);
  atomic_fetch_add(&work->entered[thread], 1);
  for (int64_t i; (i = atomic_fetch_add(&work->next, 1)) < kItems;)
    atomic_fetch_add(&work->done[i], 1);
  atomic_fetch_sub(&work->inside, 1);
}

// Thread 0 of one region waits (up to 10 s) until `expected` threads have
// entered it; returns how many did, or -1 if one had a number of `expected`
// or more.
struct Team {
  _Atomic int32_t entered[kMaxThreads];
  int32_t expected;
};

static void gather(void *context, int32_t thread) {
  struct Team *team = context;
  if (thread < 0 || thread >= kMaxThreads)
    return;
  atomic_fetch_add(&team->entered[thread], 1);
  if (thread != 0)
    return;
  for (int i = 0; i < 10000; ++i) {
    int32_t count = 0;
    for (int t = 0; t < kMaxThreads; ++t)
      count += atomic_load(&team->entered[t]) != 0;
    if (count >= team->expected)
      return;
    usleep(1000);
  }
}

static int32_t gatherTeam(int32_t expected) {
  struct Team team;
  memset(&team, 0, sizeof(team));
  team.expected = expected;
  __pb_parallel_run_v1(gather, &team);
  int32_t count = 0;
  for (int t = 0; t < kMaxThreads; ++t) {
    if (atomic_load(&team.entered[t]) > 1 ||
        (atomic_load(&team.entered[t]) && t >= expected))
      return -1;
    count += atomic_load(&team.entered[t]) != 0;
  }
  return count;
}

// Runs `regions` regions; returns the items computed, or -1 on a wrong one.
static int64_t runRegions(int regions) {
  int64_t items = 0;
  for (int r = 0; r < regions; ++r) {
    struct Work work;
    memset(&work, 0, sizeof(work));
    __pb_parallel_run_v1(claimItems, &work);
    if (atomic_load(&work.badThread) || atomic_load(&work.inside) != 0 ||
        atomic_load(&work.entered[0]) != 1)
      return -1;
    for (int t = 1; t < kMaxThreads; ++t)
      if (atomic_load(&work.entered[t]) > 1)
        return -1;
    for (int i = 0; i < kItems; ++i) {
      if (atomic_load(&work.done[i]) != 1)
        return -1;
      ++items;
    }
  }
  return items;
}

static _Atomic int stopSpinning;

static void *spin(void *unused) {
  (void)unused;
  while (!atomic_load_explicit(&stopSpinning, memory_order_relaxed))
    ;
  return NULL;
}

static _Atomic int nestedOk = 1;

static void nested(void *context, int32_t thread) {
  (void)context;
  struct Work inner;
  memset(&inner, 0, sizeof(inner));
  __pb_parallel_run_v1(claimItems, &inner);
  // Inside a region, a region runs on its caller alone.
  if (atomic_load(&inner.next) < kItems || atomic_load(&inner.entered[0]) != 1)
    atomic_store(&nestedOk, 0);
  for (int t = 1; t < kMaxThreads; ++t)
    if (atomic_load(&inner.entered[t]))
      atomic_store(&nestedOk, 0);
  (void)thread;
}

static void *caller(void *result) {
  *(int64_t *)result = runRegions(5000);
  return NULL;
}

int main(int argc, char **argv) {
  int32_t expected = argc > 1 ? atoi(argv[1]) : 1;
  printf("team %d\n", gatherTeam(expected));
  int64_t items = runRegions(20000);
  printf("regions 20000 items %lld %s\n", (long long)items,
         items == 20000LL * kItems ? "ok" : "WRONG");

  // Every core busy with threads the pool does not know of.
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  pthread_t spinners[64];
  int spinning = cpus < 64 ? (int)cpus : 64;
  for (int i = 0; i < spinning; ++i)
    pthread_create(&spinners[i], NULL, spin, NULL);
  items = runRegions(2000);
  atomic_store(&stopSpinning, 1);
  for (int i = 0; i < spinning; ++i)
    pthread_join(spinners[i], NULL);
  printf("contended regions 2000 items %lld %s\n", (long long)items,
         items == 2000LL * kItems ? "ok" : "WRONG");

  for (int r = 0; r < 200; ++r)
    __pb_parallel_run_v1(nested, NULL);
  printf("nested %s\n", atomic_load(&nestedOk) ? "ok" : "WRONG");

  int64_t results[2];
  pthread_t callers[2];
  for (int i = 0; i < 2; ++i)
    pthread_create(&callers[i], NULL, caller, &results[i]);
  for (int i = 0; i < 2; ++i)
    pthread_join(callers[i], NULL);
  printf("concurrent %s\n",
         results[0] == 5000LL * kItems && results[1] == 5000LL * kItems
             ? "ok"
             : "WRONG");

  fflush(stdout);
  pid_t child = fork();
  if (child == 0)
    _exit(runRegions(2000) == 2000LL * kItems &&
                    gatherTeam(expected) == expected
                ? 0
                : 1);
  int status = 1;
  waitpid(child, &status, 0);
  printf("child %s\n",
         WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "ok" : "WRONG");
  return 0;
}
