// The generated header compiles as C++17 (extern "C" linkage) and the object
// links into a C++ program whose results match plain loops.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %pbtool compile %S/Inputs/abi-kernels.mlir -o %t.o --header %t.dir/abi-kernels.h
// RUN: %cxx -std=c++17 -Wall -Wextra -Werror -I%t.dir -I%S/Inputs -x c++ %s -x none %t.o %libomp -o %t.exe
// RUN: %t.exe | FileCheck %s
// CHECK: ABI C++ OK

#include "abi-check.inc"

#include <cstdio>
#include <type_traits>

// The prototypes are exactly the documented ones.
static_assert(std::is_same<decltype(&scale_rows),
                           int (*)(const float *, const float *, float *, float *)>::value,
              "scale_rows prototype");
static_assert(std::is_same<decltype(&mixed),
                           int (*)(const int8_t *, const int16_t *, const int64_t *,
                                   const uint8_t *, const uint16_t *, const float *,
                                   const double *, int32_t *, uint8_t *, uint16_t *,
                                   uint16_t *, double *)>::value,
              "mixed prototype");

int main() {
  if (run_checks() != 0)
    return 1;
  std::printf("ABI C++ OK\n");
  return 0;
}
