// RUN: %pbtool compile %s --cpu=skylake-avx512 --no-parallel --compile-to=s3 | FileCheck %s --check-prefix=AVX512
// RUN: %pbtool compile %s --cpu=x86-64-v3 --no-parallel --compile-to=s3 | FileCheck %s --check-prefix=AVX2
// RUN: %pbtool compile %s --cpu=skylake-avx512 --no-parallel --emit=asm | FileCheck %s --check-prefix=ASM512 --implicit-check-not=ymm

// The micro-kernel's shape follows the CPU's vector registers: with
// AVX-512's 32 registers of 16 lanes, 14 rows x 32 columns (2 registers per
// row, 2 for the panel, 1 for the broadcast); with AVX2's 16 registers of 8
// lanes, 6 x 16 and a tile of the 4 rows left over. The packed panel is
// KC x NR, and the AVX-512 object is made of 512-bit instructions only.

// AVX512-LABEL: func.func @matmul
// AVX512:         memref.alloca() {{.*}} : memref<128x32xf32>
// AVX512:         affine.for %{{.*}} = 0 to 64 step 32 {
// AVX512:           affine.for %{{.*}} = 0 to 28 step 14 {
// AVX512:             %{{.*}}:14 = affine.for %{{.*}} = 0 to 128 iter_args({{.*}}) -> (vector<32xf32>,
// AVX512-COUNT-14:      vector.fma %{{.*}} : vector<32xf32>
// AVX512:               affine.yield
// AVX512-NOT:     vector<16xf32>

// AVX2-LABEL: func.func @matmul
// AVX2:         memref.alloca() {{.*}} : memref<128x16xf32>
// AVX2:         affine.for %{{.*}} = 0 to 64 step 16 {
// AVX2:           affine.for %{{.*}} = 0 to 24 step 6 {
// AVX2:             %{{.*}}:6 = affine.for %{{.*}} = 0 to 128 iter_args({{.*}}) -> (vector<16xf32>,
// AVX2-COUNT-6:       vector.fma %{{.*}} : vector<16xf32>
// AVX2:               affine.yield
// AVX2:           %{{.*}}:4 = affine.for %{{.*}} = 0 to 128 iter_args({{.*}}) -> (vector<16xf32>,
// AVX2-NOT:     vector<32xf32>

// ASM512-LABEL: {{^}}matmul:
// ASM512:         vfmadd231ps {{.*}}%zmm
func.func @matmul(%a: tensor<28x128xf32>, %b: tensor<128x64xf32>) -> tensor<28x64xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<28x64xf32>
  %c0 = linalg.fill ins(%zero : f32) outs(%init : tensor<28x64xf32>) -> tensor<28x64xf32>
  %c = linalg.matmul ins(%a, %b : tensor<28x128xf32>, tensor<128x64xf32>)
                     outs(%c0 : tensor<28x64xf32>) -> tensor<28x64xf32>
  return %c : tensor<28x64xf32>
}
