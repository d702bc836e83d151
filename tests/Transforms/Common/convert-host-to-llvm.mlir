// RUN: pb-opt %s -finalize-memref-to-llvm -pb-convert-host-to-llvm -reconcile-unrealized-casts | FileCheck %s
//
// The same program as upstream's three conversions in turn give.
// RUN: pb-opt %s -finalize-memref-to-llvm -pb-convert-host-to-llvm -reconcile-unrealized-casts -o %t.ours
// RUN: pb-opt %s -finalize-memref-to-llvm -convert-arith-to-llvm -convert-func-to-llvm=use-bare-ptr-memref-call-conv -convert-cf-to-llvm -reconcile-unrealized-casts -o %t.upstream
// RUN: diff %t.upstream %t.ours

// A memref argument is its bare pointer; arith, cf and func ops, block
// arguments of index type included, become llvm ops; nothing else is left.
// CHECK-LABEL: llvm.func @f
// CHECK-SAME:    (%[[A:.*]]: !llvm.ptr {llvm.noalias}, %[[X:.*]]: f32, %[[N:.*]]: i64) -> f32
// CHECK:         llvm.br ^bb1(%{{.*}}, %{{.*}} : i64, f32)
// CHECK:       ^bb1(%[[I:.*]]: i64, %[[ACC:.*]]: f32):
// CHECK-NEXT:    %[[DONE:.*]] = llvm.icmp "sge" %[[I]], %[[N]] : i64
// CHECK-NEXT:    llvm.cond_br %[[DONE]], ^bb3, ^bb2
// CHECK:         llvm.load
// CHECK-NEXT:    %[[S:.*]] = llvm.fadd %[[ACC]], %{{.*}} : f32
// CHECK-NEXT:    %[[M:.*]] = llvm.fmul %[[S]], %[[X]] : f32
// CHECK-NEXT:    %[[NEXT:.*]] = llvm.add %[[I]], %{{.*}} : i64
// CHECK-NEXT:    llvm.br ^bb1(%[[NEXT]], %[[M]] : i64, f32)
// CHECK:         %[[R:.*]] = llvm.call @g(%[[ACC]]) : (f32) -> f32
// CHECK-NEXT:    llvm.return %[[R]] : f32
// CHECK:       llvm.func @g(f32) -> f32
// CHECK-NOT:   arith.
// CHECK-NOT:   cf.
// CHECK-NOT:   func.
func.func @f(%a: memref<4xf32> {llvm.noalias}, %x: f32, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  cf.br ^loop(%c0, %zero : index, f32)
^loop(%i: index, %acc: f32):
  %done = arith.cmpi sge, %i, %n : index
  cf.cond_br %done, ^exit, ^body
^body:
  %v = memref.load %a[%i] : memref<4xf32>
  %s = arith.addf %acc, %v : f32
  %m = arith.mulf %s, %x : f32
  %next = arith.addi %i, %c1 : index
  cf.br ^loop(%next, %m : index, f32)
^exit:
  %r = call @g(%acc) : (f32) -> f32
  return %r : f32
}
func.func private @g(f32) -> f32
