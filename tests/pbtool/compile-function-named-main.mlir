// A public function named main (torch-mlir's default entry point name)
// cannot be compiled into an object or a header for C, whose program has a
// main of its own: a located error, exit code 1, nothing written. A shared
// library loaded at run time and pbtool run have no such limit.
// RUN: rm -f %t.o %t.h
// RUN: sh %S/Inputs/exit-code.sh %pbtool compile %s -o %t.o 2>&1 | FileCheck %s
// RUN: sh %S/Inputs/exit-code.sh %pbtool compile %s --emit=shared -o %t.so --header %t.h 2>&1 | FileCheck %s
// RUN: test ! -e %t.o
// RUN: test ! -e %t.h
// RUN: %pbtool compile %s --emit=shared -o %t.so
// RUN: %pbtool run %s --input=2xf32=1 | FileCheck %s --check-prefix=RESULT

// CHECK: compile-function-named-main.mlir:[[@LINE+3]]:1: error: public function @main would be the C symbol 'main', the entry point of the program that links it: rename the function (from Python: export(..., function="name"))
// CHECK: exit code: 1
// RESULT: result0: 2xf32=[2 2]
func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %e = tensor.empty() : tensor<2xf32>
  %r = linalg.add ins(%a, %a : tensor<2xf32>, tensor<2xf32>) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}
