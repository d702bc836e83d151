// The header maps every supported element type to its C type (f16 and bf16
// as uint16_t bits, i1 as uint8_t), gives a 0-d tensor rank 0, and names an
// argument without a usable SSA name after its position.
// RUN: %pbtool compile %s -o %t.o --header %t.h
// RUN: FileCheck %s < %t.h

// CHECK: #define TYPES_S_RANK 0
// CHECK-NEXT: #define TYPES_S_SIZE 1
// CHECK: int types(const float* f, const double* d, const uint16_t* h, const uint16_t* b, const uint8_t* p, const int8_t* c, const int16_t* s16, const int32_t* arg7, const int64_t* l, const float* s, float* result0);
func.func @types(%f: tensor<2xf32>, %d: tensor<2xf64>, %h: tensor<2xf16>, %b: tensor<2xbf16>,
                 %p: tensor<2xi1>, %c: tensor<2xi8>, %s16: tensor<2xi16>, %0: tensor<2xi32>,
                 %l: tensor<2xi64>, %s: tensor<f32>) -> tensor<f32> {
  return %s : tensor<f32>
}
