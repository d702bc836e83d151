// Identity kernels, one per type: `pbtool run` turns a literal into a .npy
// file with them (--output) and prints a .npy file back (--input).
func.func @f32_2x2(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  return %x : tensor<2x2xf32>
}
func.func @f32_4(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
func.func @f64_2x2(%x: tensor<2x2xf64>) -> tensor<2x2xf64> {
  return %x : tensor<2x2xf64>
}
func.func @f16_4(%x: tensor<4xf16>) -> tensor<4xf16> {
  return %x : tensor<4xf16>
}
func.func @i1_5(%x: tensor<5xi1>) -> tensor<5xi1> {
  return %x : tensor<5xi1>
}
func.func @i64_2x2(%x: tensor<2x2xi64>) -> tensor<2x2xi64> {
  return %x : tensor<2x2xi64>
}
func.func @i32_3(%x: tensor<3xi32>) -> tensor<3xi32> {
  return %x : tensor<3xi32>
}
func.func @i8_3(%x: tensor<3xi8>) -> tensor<3xi8> {
  return %x : tensor<3xi8>
}
