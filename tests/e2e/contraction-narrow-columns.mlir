// RUN: %pbtool crosscheck %s | FileCheck %s
// RUN: %pbtool crosscheck %s --cpu=x86-64-v3 | FileCheck %s
// RUN: %if host-x86-64-v4 %{ %pbtool crosscheck %s --cpu=x86-64-v4 --threads=2 --l2-cache-kib=64 | FileCheck %s %}
// RUN: %pbtool compile %s --compile-to=s3 -o - | FileCheck %s --check-prefix=S3
// RUN: %pbtool compile %s --cpu=x86-64-v4 --threads=2 --l2-cache-kib=64 --compile-to=s3 -o - | FileCheck %s --check-prefix=AVX512
// CHECK: PASS @matmul_n40
// CHECK: PASS @pointwise_conv_n24
// CHECK: PASS @matmul_n12_f64
// CHECK: PASS @matmul_constant_n40_bias_relu
// CHECK: PASS @matmul_argument_n48
// CHECK: PASS @batch_matmul_n24
// Covers: pb-register-tile-contraction with column counts no multiple of a
// full tile (40, 24, 12, 48 columns: tiles of a width that divides them,
// held in vectors of different widths) against the reference lowering, on
// the host's vectors, on AVX2's and on AVX-512's: panels packed per k block
// (matmuls), once before the nest (a convolution; a matmul by an argument
// with many rows), at compile time (a constant, with a bias + ReLU fused at
// each vector's store) and per batch.
// AVX-512 (chooseTileColumns): 40 columns as 16 + 16 + 8 (9 rows), 24 as
// 16 + 8 (14 rows), 12 f64 columns as 8 + 4, 48 as three vectors of 16.
// AVX512-LABEL: func.func @matmul_n40
// AVX512:         summary = "register tile 9 x 40 of f32 ({{.*}}; vector<16xf32> + vector<16xf32> + vector<8xf32> accumulators per row)
// AVX512-LABEL: func.func @pointwise_conv_n24
// AVX512:         summary = "register tile 14 x 24 of f32 ({{.*}}; vector<16xf32> + vector<8xf32> accumulators per row)
// AVX512-LABEL: func.func @matmul_n12_f64
// AVX512:         summary = "register tile {{[0-9]+}} x 12 of f64 ({{.*}}; vector<8xf64> + vector<4xf64> accumulators per row)
// AVX512-LABEL: func.func @matmul_constant_n40_bias_relu
// AVX512:         arith.maximumf {{.*}} : vector<16xf32>
// AVX512:         arith.maximumf {{.*}} : vector<16xf32>
// AVX512:         arith.maximumf {{.*}} : vector<8xf32>
// AVX512:         packed_at_compile_time = true
// AVX512-SAME:    summary = "register tile 9 x 40 of f32
// AVX512-LABEL: func.func @matmul_argument_n48
// AVX512:         summary = "register tile 9 x 48 of f32 ({{.*}}; vector<16xf32> + vector<16xf32> + vector<16xf32> accumulators per row)
// AVX512-LABEL: func.func @batch_matmul_n24
// AVX512:         summary = "register tile {{[0-9]+}} x 24 of f32
// S3-LABEL: func.func @matmul_n40
// S3:         vector.fma
// S3:         pass = "pb-register-tile-contraction"
// S3-LABEL: func.func @pointwise_conv_n24
// S3:         pass = "pb-register-tile-contraction"
// S3-LABEL: func.func @matmul_n12_f64
// S3:         pass = "pb-register-tile-contraction"
func.func @matmul_n40(%a: tensor<200x256xf32>, %b: tensor<256x40xf32>) -> tensor<200x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<200x40xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<200x40xf32>) -> tensor<200x40xf32>
  %r = linalg.matmul ins(%a, %b : tensor<200x256xf32>, tensor<256x40xf32>) outs(%init : tensor<200x40xf32>) -> tensor<200x40xf32>
  return %r : tensor<200x40xf32>
}

func.func @pointwise_conv_n24(%in: tensor<1x14x14x144xf32>, %f: tensor<1x1x144x24xf32>) -> tensor<1x14x14x24xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x14x14x24xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x14x14x24xf32>) -> tensor<1x14x14x24xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : tensor<1x14x14x144xf32>, tensor<1x1x144x24xf32>) outs(%init : tensor<1x14x14x24xf32>) -> tensor<1x14x14x24xf32>
  return %r : tensor<1x14x14x24xf32>
}

func.func @matmul_n12_f64(%a: tensor<30x64xf64>, %b: tensor<64x12xf64>) -> tensor<30x12xf64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<30x12xf64>
  %init = linalg.fill ins(%zero : f64) outs(%e : tensor<30x12xf64>) -> tensor<30x12xf64>
  %r = linalg.matmul ins(%a, %b : tensor<30x64xf64>, tensor<64x12xf64>) outs(%init : tensor<30x12xf64>) -> tensor<30x12xf64>
  return %r : tensor<30x12xf64>
}

func.func @matmul_constant_n40_bias_relu(%a: tensor<50x12xf32>, %bias: tensor<40xf32>) -> tensor<50x40xf32> {
  %w = arith.constant dense<"0x6B9E823F0490A3BF0D11563E595991BEA6C167BE81C5DCBD744781BFAE7FEDBD9B7EDDBE06ACD43F9B34E73D068C34BEE80410BE1605ABBE2C0F07BF111748BE8CC1763E6647F4BDAD2FF53EEE98CCBDFFBB463C75DD453F098C8B3EAC5681BE243ABBBDDB5F8A3EF7B0773FAD0B0ABE7267F9BDD04B003F0AEFE2BE5B5C15BE13EEE13ED291943E1C6D3B3DF68BAB3E9C00B5BF2FBA023F47ABF5BE569555BF4C8A0D3EE956B33E8FB863BEABC709BFBF03563C900DD8BCA4EA333F2156BF3E9C77C63DFF490E3FA274D2BDC107EDBED884953E3D21953E1CFCDBBD2566C8BE52A7EA3DF79B9FBF04ACB03E9F947B3E12C651BFD14DFB3C3CCFF6BE3DD9C13ECC2F82BF501CEABE09A7B53EF304143FC31C8ABF14FF7EBE40F2273E97F59BBE199A4B3F1E7A18BF3685353E273206BF98F6333FEB5D31BCA0973EBE7CED5BBF0F46573F19B6C03E8FE9C03E18A6113FD3CD323EAAA5A3BE9CDCCCBEE8D9CCBE885E2F3FC5ED3ABFACAB98BE157A24BE8802E63D194A933E69E21FBF15715DBF44A510BB0F561B3F8FCEC13E8FD3DC3D396222BEBA22163ED52CF9BD7334D13EE760CBBE3276893DB2E062BD9A198B3EA407E63DC433A33FEBD33F3F15953F3F3B8782BFFB3D2EBEE8CD9BBE7160883E92DB91BFF955163FE992083F42AA26BF2882FABE9C19CDBE0B57B13CAE16A43E9110833F232FCABD0C7BC43ED9259F3D4445613F0FFEBD3EA92C2F3F43F109BFC0DAC4BD6453D0BE1EA2403F175BA83EE43B1CBEDFA967BEFF25783E3695B3BE133BEEBE9C69763EF5A39D3F6F0AFCBD384D8EBE78E815BFA4E12ABF4D65863E3ACED93E9251963B66472A3EAC656D3D89FB8D3D2E5943BF7A8E6ABE434F643D9E7DC8BE99EE73BEDCB1D1BE13C02ABE4E65DA3E4D2B50BE47909DBDD94FD03EA90FA53E90FC583F82CA85BF1C5BDB3EF1ED76BEA7EC893DC774D63E0AA80A3F7209053F4AD49E3D6D094E3FFFE110BE905D90BD48A2CC3EBE268DBE4A4C8A3F5C75023FA03C8B3F91D159BC2F2444BEA20EAB3D350DBC3EA96196BE4468423E21A909BCA9CE4E3FD3A6A9BEA1E8053F3ED4A4BE1FECF5BE2FD6B5BE035818BFDEDC953D5B00043F2942A83DC5D39F3E16EB503FE8400A3EA4D8C73DDBD40CBEE2DA4DBF407EC23EB2D360BFCE15A73ED79FEABB603A103F22CB0ABD3FBDD2BE0440373EA36B8FBEBF4CB9BDB480AB3C66C789BD6255C1BD1D1BD5BE49ACC1BD93DA88BFAA1BA1BDE65919BFCD640F3FF68C223F36BB79BF1165943D8B6581BDC7FA05BF6C1A883E92626CBEB04062BFD88908BEAACF97BD81F8593D0B991DBF449D9D3EEA46BC3E78AA12BFC2AAA8BEE48724BD7BE090BE5A335F3F805FD53DC15A01BF82C1C9BEEF65EBBC0AEE923FEC8AB6BD2E89823D7A98833E185BA4BC59F6913F051288BE1984BE3EDA49A43DBA069F3E3D9C16BF8451623F6AE378BDC7EE8B3C9B5AEFBE4FCDBABEFF71903E428BFC3E4DD5C03E8ABF1A3FBFE8B63ECA28693C9126D63E62F6973E68FA4DBDE7DFB93EBB91243F7733F03D846036BE78FDB73EDA4A733F949DD7BDD40C3DBDCBAB8BBDD68B1C3F50296BBF16503B3E1B9C183FE139D0BED0963E3F030A893E9E8D8CBE070AD13D3D6A44BF43C990BEFCD7693F58D0E4BEED1A6C3F0E1027BD3AA2FE3E5DCDB33C6F748FBF479992BEFB68C23D525213BFF4772CBFB67C3B3E1040A6BEDE1059BF2C22AFBE4C59DC3ED88E72BE414DEF3EAD7D433FDE2E853C779910BFAF9926BF531257BCDD8CE13E61BC093E0C198C3EB2FD62BE03D1193E624F71BE57B626BE556825BF473E49BF07C376BED1C50DBF5C70F5BEC4C9AB3E3E4D5BBD0A81BA3FC124ED3E9518A2BE7D2BC73E00AF363ECC88AFBED5210D3FF07BC6BE85BCC3BFD447CB3EB2049EBE7A363E3FEB50A6BE9E3617BFFE33463FEEA909BF7046D03DA990393F957D6A3DB40925BD61C3513D38CCD63E3E8BCEBEF8529C3E37BB933E274B953F134D2CBE4A32EABEFC55BC3E32584BBE0907143E24C2873DEF8D153F8026A8BE0DFD3CBDD055A3BF81DEE3BEC0A6443F2C77AEBEFC93B3BE62E41BBF0570943E0E43B63D41EB17BF07DEAA3E992C053E5508C13E0038A4BE12775E3F2BDA513EC5636FBD53D284BE07B4FABDCBD9DB3E01B609BE9E000A3F32A7943EF4592C3F2269D03E4DE600BD406574BF3EDE183EE300CA3E3CCDA63D4F728E3E317871BEF5CD42BE6940F1BEC1522E3F1B32A23D23277CBE257A2ABF95FC9CBD24A8383FFE806C3E3F7AB9BEB1F9363F6CD9363F2614FB3EE7EFC93E66EC133F06138B3E7466C63EBEAFC7BE83F13F3F80BAEC3DB08C813F31B482BFAD95B43E1041FB3EDD942FBEC8A6673E5292BF3E46CF933E1C278ABE275891BDE36F023F397F233F5FB44A3D34C31D3DEB4ECD3D37D2043FBCEA06BFD41E2ABFD8987E3DBCA20DBFCE4C96BED2BB303DE30A773E4E3A09BF0436CD3E150963BF63A08B3E1DF349BFB13023BFA868A43EB60E50BEB5A9CBBEC8B963BEC1186E3E2C60DDBC25B470BCEA02073F6065B7BE4BA171BEF9BD85BE3E9F153FC3CCFD3EEDBE243F143E8ABCD990A0BD554FDA3E54F049BE8DA6D43E406BB93EF8C4B2BEF7612ABDDD3974BD19DE5D3FE69EA53FA8A64CBD8A6FE63B7B0592BFEC9BD83DD97466BBF25209BFB41CC93E9F6A48BF6A02DCBD78308E3D3BDF1FBF"> : tensor<12x40xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<50x40xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<50x40xf32>) -> tensor<50x40xf32>
  %y = linalg.matmul ins(%a, %w : tensor<50x12xf32>, tensor<12x40xf32>) outs(%init : tensor<50x40xf32>) -> tensor<50x40xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%y, %bias : tensor<50x40xf32>, tensor<40xf32>) outs(%e : tensor<50x40xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<50x40xf32>
  return %r : tensor<50x40xf32>
}

func.func @matmul_argument_n48(%a: tensor<600x32xf32>, %b: tensor<32x48xf32>) -> tensor<600x48xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<600x48xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<600x48xf32>) -> tensor<600x48xf32>
  %r = linalg.matmul ins(%a, %b : tensor<600x32xf32>, tensor<32x48xf32>) outs(%init : tensor<600x48xf32>) -> tensor<600x48xf32>
  return %r : tensor<600x48xf32>
}

func.func @batch_matmul_n24(%a: tensor<3x30x16xf32>, %b: tensor<3x16x24xf32>) -> tensor<3x30x24xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x30x24xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<3x30x24xf32>) -> tensor<3x30x24xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<3x30x16xf32>, tensor<3x16x24xf32>) outs(%init : tensor<3x30x24xf32>) -> tensor<3x30x24xf32>
  return %r : tensor<3x30x24xf32>
}
