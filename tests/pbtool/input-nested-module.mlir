// A public function inside a nested module is not an entry point that pbtool
// can compile or call: the nested module must be rejected with a located
// error and exit code 1, and nothing written.
// says "several public functions", crosscheck checks nothing and passes).
// RUN: rm -f %t.o %t.h
// RUN: sh %S/Inputs/exit-code.sh %pbtool compile %s -o %t.o --header %t.h 2>&1 | FileCheck %s
// RUN: test ! -e %t.o
// RUN: test ! -e %t.h

module {
  // CHECK: input-nested-module.mlir:[[@LINE+1]]:3: error:
  module @inner {
    func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
      return %a : tensor<2xf32>
    }
  }
}
// CHECK: exit code: 1
