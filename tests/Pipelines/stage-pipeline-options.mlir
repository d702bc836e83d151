// RUN: %pb-opt %s --pb-s1-pipeline | FileCheck %s --check-prefix=DEFAULT
// RUN: %pb-opt %s --pass-pipeline='builtin.module(pb-s1-pipeline{cpu=skylake-avx512 l2-cache-kib=256 threads=4})' | FileCheck %s --check-prefix=AVX512
// RUN: %pb-opt %s --pass-pipeline='builtin.module(pb-s1-pipeline{cpu=x86-64-v3 vector-registers=32 l1-cache-kib=64 l3-cache-kib=1024})' | FileCheck %s --check-prefix=OVERRIDE
// RUN: %pb-opt %s --pass-pipeline='builtin.module(pb-s1-pipeline{target=amdgpu chip=gfx942})' | FileCheck %s --check-prefix=AMD
// RUN: not %pb-opt %s --pass-pipeline='builtin.module(pb-s1-pipeline{cpu=pentium9})' 2>&1 | FileCheck %s --check-prefix=BADCPU
// RUN: not %pb-opt %s --pass-pipeline='builtin.module(pb-s1-pipeline{target=nvgpu chip=sm_50})' 2>&1 | FileCheck %s --check-prefix=BADCHIP

// The textual stage pipelines take pbtool's flags (one declaration for
// both): the machine model they attach follows them. Without a CPU they
// plan for the model's defaults, whatever the host.

// DEFAULT: module attributes {pb.machine = {l1_kib = 32 : i64, l1_ways = 8 : i64, l2_kib = 512 : i64, l3_kib = 8192 : i64, line_bytes = 64 : i64, target = "cpu", threads = 8 : i64, vector_bits = 256 : i64, vector_registers = 16 : i64}}
// AVX512: module attributes {pb.machine = {l1_kib = 32 : i64, l1_ways = 8 : i64, l2_kib = 256 : i64, l3_kib = 8192 : i64, line_bytes = 64 : i64, target = "cpu", threads = 4 : i64, vector_bits = 512 : i64, vector_registers = 32 : i64}}
// OVERRIDE: module attributes {pb.machine = {l1_kib = 64 : i64, l1_ways = 8 : i64, l2_kib = 512 : i64, l3_kib = 1024 : i64, line_bytes = 64 : i64, target = "cpu", threads = 8 : i64, vector_bits = 256 : i64, vector_registers = 32 : i64}}
// AMD: module attributes {pb.machine = {chip = "gfx942", {{.*}}target = "amdgpu"
// BADCPU: pb-s1-pipeline: unknown CPU 'pentium9'
// BADCHIP: pb-s1-pipeline: unknown chip 'sm_50' for target nvgpu (known: sm_70,
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
