/* Loads a shared library of kernels at run time and calls its entry point
 * `add` (two 2x2 f32 inputs, one result), as the Python package's loader
 * does: usage load-shared LIBRARY. Prints the result. */
#include <dlfcn.h>
#include <stdio.h>

typedef int (*AddFn)(const float *, const float *, float *);

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  void *library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    printf("dlopen failed: %s\n", dlerror());
    return 1;
  }
  AddFn add = (AddFn)dlsym(library, "add");
  if (!add) {
    printf("no entry point add\n");
    return 1;
  }
  float a[4] = {1, 2, 3, 4}, b[4] = {10, 20, 30, 40}, r[4] = {0};
  int status = add(a, b, r);
  printf("status %d: %g %g %g %g\n", status, r[0], r[1], r[2], r[3]);
  return status;
}
