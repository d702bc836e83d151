// RUN: pb-opt %s -pb-set-machine-model='machine={vector_bits = 512 : i64, vector_registers = 32 : i64}' | FileCheck %s
// RUN: pb-opt %s -pb-set-machine-model='machine={target = "amdgpu", chip = "gfx942"}' | FileCheck %s --check-prefix=AMD
// RUN: not pb-opt %s -pb-set-machine-model='machine={target = "amdgpu", chip = "sm_80"}' 2>&1 | FileCheck %s --check-prefix=BAD

// pb-set-machine-model attaches the machine model; fields not given keep
// their defaults (a generic AVX2 CPU).

// CHECK: module attributes {pb.machine = {l1_kib = 32 : i64, l1_ways = 8 : i64, l2_kib = 512 : i64, l3_kib = 8192 : i64, line_bytes = 64 : i64, target = "cpu", threads = 8 : i64, vector_bits = 512 : i64, vector_registers = 32 : i64}}
// AMD: module attributes {pb.machine = {chip = "gfx942", l1_kib = 32 : i64, {{.*}}target = "amdgpu"
// BAD: error: pb-set-machine-model: '{target = "amdgpu", chip = "sm_80"}' is not a machine model
func.func @f() {
  return
}
