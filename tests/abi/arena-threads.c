// A function whose buffers live in an arena kept between calls
// (pb-static-arenas), called from several threads at once, each on its own
// inputs, many times: every call's result equals the same call made alone.
// Calls that overlap find the arena taken and allocate their own; a call
// reusing a buffer another call is writing would differ.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %pbtool compile %S/Inputs/arena-chain.mlir -o %t.o --header %t.dir/arena-chain.h
// RUN: %pbtool compile %S/Inputs/arena-chain.mlir --compile-to=s3 -o - | FileCheck %s --check-prefix=S3
// RUN: %cc -std=c99 -Wall -Wextra -Werror -pthread -I%t.dir %s %t.o %libomp -lm -o %t.exe
// RUN: %t.exe | FileCheck %s
// S3: memref.global "private" @__pb_arena_arena_chain
// CHECK: arena threads OK

#include "arena-chain.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

enum { THREADS = 4, CALLS = 200, N = ARENA_CHAIN_RESULT0_SIZE };

static float inputs[THREADS][ARENA_CHAIN_X_SIZE];
static float weights[ARENA_CHAIN_W_SIZE];
static float expected[THREADS][N];
static int failures[THREADS];

static void *calls(void *arg) {
  int t = (int)(long)arg;
  static float results[THREADS][N];
  for (int call = 0; call < CALLS; ++call) {
    if (arena_chain(inputs[t], weights, results[t]) != 0 ||
        memcmp(results[t], expected[t], sizeof(expected[t])) != 0)
      ++failures[t];
  }
  return NULL;
}

int main(void) {
  for (int i = 0; i < ARENA_CHAIN_W_SIZE; ++i)
    weights[i] = (float)((i * 7) % 13) / 13.0f - 0.5f;
  for (int t = 0; t < THREADS; ++t) {
    for (int i = 0; i < ARENA_CHAIN_X_SIZE; ++i)
      inputs[t][i] = (float)((i * (t + 3)) % 11) / 11.0f - 0.5f;
    if (arena_chain(inputs[t], weights, expected[t]) != 0)
      return 1;
  }
  pthread_t threads[THREADS];
  for (int t = 0; t < THREADS; ++t)
    pthread_create(&threads[t], NULL, calls, (void *)(long)t);
  int total = 0;
  for (int t = 0; t < THREADS; ++t) {
    pthread_join(threads[t], NULL);
    total += failures[t];
  }
  if (total) {
    printf("%d calls differed from the same call made alone\n", total);
    return 1;
  }
  printf("arena threads OK\n");
  return 0;
}
