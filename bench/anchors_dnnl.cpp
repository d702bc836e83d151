// oneDNN anchors (oneDNN 2.6 C++ API): dnnl_sgemm, a matmul primitive with
// bias + relu post-op, forward convolutions, softmax and layer normalization.
#include "anchors.h"

#include <oneapi/dnnl/dnnl.hpp>

#include <string>

namespace pbbench {
namespace {

using dnnl::memory;
using tag = memory::format_tag;
using dt = memory::data_type;

dnnl::engine &cpu_engine() {
  static dnnl::engine eng(dnnl::engine::kind::cpu, 0);
  return eng;
}

const char *isa_name(dnnl_cpu_isa_t isa) {
  switch (isa) {
  case dnnl_cpu_isa_sse41:
    return "sse41";
  case dnnl_cpu_isa_avx:
    return "avx";
  case dnnl_cpu_isa_avx2:
    return "avx2";
  case dnnl_cpu_isa_avx2_vnni:
    return "avx2_vnni";
  case dnnl_cpu_isa_avx512_core:
    return "avx512_core";
  case dnnl_cpu_isa_avx512_core_vnni:
    return "avx512_core_vnni";
  case dnnl_cpu_isa_avx512_core_bf16:
    return "avx512_core_bf16";
  case dnnl_cpu_isa_avx512_core_amx:
    return "avx512_core_amx";
  default:
    return "other";
  }
}

} // namespace

void dnnl_sgemm_rowmajor(int M, int N, int K, const float *A, const float *B,
                         float *C) {
  // dnnl_sgemm is row-major: C = alpha * op(A) * op(B) + beta * C.
  dnnl_sgemm('N', 'N', M, N, K, 1.0f, A, K, B, N, 0.0f, C, N);
}

std::string dnnl_info() {
  const dnnl_version_t *v = dnnl_version();
  std::string cpu_runtime =
      v->cpu_runtime == DNNL_RUNTIME_OMP ? "OpenMP" : "non-OpenMP";
  return "oneDNN " + std::to_string(v->major) + "." + std::to_string(v->minor) +
         "." + std::to_string(v->patch) + ", ISA " +
         isa_name(dnnl_get_effective_cpu_isa()) + ", " + cpu_runtime +
         " CPU runtime";
}

// --- matmul + bias + relu
// -------------------------------------------------------
struct DnnlMatmulBiasRelu::Impl {
  dnnl::stream strm{cpu_engine()};
  dnnl::matmul::primitive_desc pd;
  dnnl::matmul prim;
  memory src, wei, bias, dst;
};

DnnlMatmulBiasRelu::DnnlMatmulBiasRelu(int M, int N, int K, const float *A,
                                       const float *B, const float *bias,
                                       float *C)
    : impl_(new Impl) {
  auto &eng = cpu_engine();
  memory::desc src_md({M, K}, dt::f32, tag::ab);
  memory::desc wei_md({K, N}, dt::f32, tag::ab);
  memory::desc bias_md({1, N}, dt::f32, tag::ab);
  memory::desc dst_md({M, N}, dt::f32, tag::ab);
  dnnl::post_ops po;
  po.append_eltwise(1.0f, dnnl::algorithm::eltwise_relu, 0.0f, 0.0f);
  dnnl::primitive_attr attr;
  attr.set_post_ops(po);
  dnnl::matmul::desc desc(src_md, wei_md, bias_md, dst_md);
  impl_->pd = dnnl::matmul::primitive_desc(desc, attr, eng);
  impl_->prim = dnnl::matmul(impl_->pd);
  impl_->src = memory(src_md, eng, const_cast<float *>(A));
  impl_->wei = memory(wei_md, eng, const_cast<float *>(B));
  impl_->bias = memory(bias_md, eng, const_cast<float *>(bias));
  impl_->dst = memory(dst_md, eng, C);
}

DnnlMatmulBiasRelu::~DnnlMatmulBiasRelu() = default;

void DnnlMatmulBiasRelu::run() {
  impl_->prim.execute(impl_->strm, {{DNNL_ARG_SRC, impl_->src},
                                    {DNNL_ARG_WEIGHTS, impl_->wei},
                                    {DNNL_ARG_BIAS, impl_->bias},
                                    {DNNL_ARG_DST, impl_->dst}});
  impl_->strm.wait();
}

std::string DnnlMatmulBiasRelu::impl() const {
  return impl_->pd.impl_info_str();
}

// --- convolution
// --------------------------------------------------------------
struct DnnlConv::Impl {
  dnnl::stream strm{cpu_engine()};
  dnnl::convolution_forward::primitive_desc pd;
  dnnl::convolution_forward prim;
  memory src, wei, dst; // in oneDNN's chosen layouts
  memory::desc user_dst_md;
};

DnnlConv::DnnlConv(const ConvShape &s, const float *in_nhwc,
                   const float *filter_hwcf)
    : impl_(new Impl) {
  auto &eng = cpu_engine();
  auto &strm = impl_->strm;
  // oneDNN's logical dims are always N C H W / O I H W; the tag is the layout.
  memory::dims src_dims = {1, s.C, s.H, s.W};
  memory::dims wei_dims = {s.F, s.C, s.K, s.K};
  memory::dims dst_dims = {1, s.F, s.OH(), s.OW()};
  memory::desc user_src_md(src_dims, dt::f32, tag::nhwc);
  memory::desc user_wei_md(wei_dims, dt::f32, tag::hwio); // HWCF
  impl_->user_dst_md = memory::desc(dst_dims, dt::f32, tag::nhwc);

  dnnl::convolution_forward::desc desc(
      dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
      memory::desc(src_dims, dt::f32, tag::any),
      memory::desc(wei_dims, dt::f32, tag::any),
      memory::desc(dst_dims, dt::f32, tag::any), {s.stride, s.stride},
      {s.pad, s.pad}, {s.pad, s.pad});
  impl_->pd = dnnl::convolution_forward::primitive_desc(desc, eng);
  impl_->prim = dnnl::convolution_forward(impl_->pd);

  // Reorder the input and the filter into the chosen layouts, once.
  memory user_src(user_src_md, eng, const_cast<float *>(in_nhwc));
  memory user_wei(user_wei_md, eng, const_cast<float *>(filter_hwcf));
  impl_->src = memory(impl_->pd.src_desc(), eng);
  impl_->wei = memory(impl_->pd.weights_desc(), eng);
  impl_->dst = memory(impl_->pd.dst_desc(), eng);
  dnnl::reorder(user_src, impl_->src).execute(strm, user_src, impl_->src);
  dnnl::reorder(user_wei, impl_->wei).execute(strm, user_wei, impl_->wei);
  strm.wait();
}

DnnlConv::~DnnlConv() = default;

void DnnlConv::run() {
  impl_->prim.execute(impl_->strm, {{DNNL_ARG_SRC, impl_->src},
                                    {DNNL_ARG_WEIGHTS, impl_->wei},
                                    {DNNL_ARG_DST, impl_->dst}});
  impl_->strm.wait();
}

void DnnlConv::output_nhwc(float *out) {
  memory user_dst(impl_->user_dst_md, cpu_engine(), out);
  dnnl::reorder(impl_->dst, user_dst)
      .execute(impl_->strm, impl_->dst, user_dst);
  impl_->strm.wait();
}

// --- softmax and layer normalization
// -------------------------------------------
struct DnnlSoftmax::Impl {
  dnnl::stream strm{cpu_engine()};
  dnnl::softmax_v2_forward::primitive_desc pd;
  dnnl::softmax_v2_forward prim;
  memory src, dst;
};

DnnlSoftmax::DnnlSoftmax(int rows, int cols, const float *x, float *y)
    : impl_(new Impl) {
  auto &eng = cpu_engine();
  memory::desc md({rows, cols}, dt::f32, tag::ab);
  dnnl::softmax_v2_forward::desc desc(dnnl::prop_kind::forward_inference,
                                      dnnl::algorithm::softmax_accurate, md, md,
                                      1);
  impl_->pd = dnnl::softmax_v2_forward::primitive_desc(desc, eng);
  impl_->prim = dnnl::softmax_v2_forward(impl_->pd);
  impl_->src = memory(md, eng, const_cast<float *>(x));
  impl_->dst = memory(md, eng, y);
}

DnnlSoftmax::~DnnlSoftmax() = default;

void DnnlSoftmax::run() {
  impl_->prim.execute(impl_->strm,
                      {{DNNL_ARG_SRC, impl_->src}, {DNNL_ARG_DST, impl_->dst}});
  impl_->strm.wait();
}

std::string DnnlSoftmax::impl() const { return impl_->pd.impl_info_str(); }

struct DnnlLayerNorm::Impl {
  dnnl::stream strm{cpu_engine()};
  dnnl::layer_normalization_forward::primitive_desc pd;
  dnnl::layer_normalization_forward prim;
  memory src, dst, scale, shift;
};

DnnlLayerNorm::DnnlLayerNorm(int rows, int cols, float epsilon, const float *x,
                             const float *gamma, const float *beta, float *y)
    : impl_(new Impl) {
  auto &eng = cpu_engine();
  memory::desc md({rows, cols}, dt::f32, tag::ab);
  memory::desc row_md({cols}, dt::f32, tag::a);
  dnnl::layer_normalization_forward::desc desc(
      dnnl::prop_kind::forward_inference, md, epsilon,
      dnnl::normalization_flags::use_scale |
          dnnl::normalization_flags::use_shift);
  impl_->pd = dnnl::layer_normalization_forward::primitive_desc(desc, eng);
  impl_->prim = dnnl::layer_normalization_forward(impl_->pd);
  impl_->src = memory(md, eng, const_cast<float *>(x));
  impl_->dst = memory(md, eng, y);
  impl_->scale = memory(row_md, eng, const_cast<float *>(gamma));
  impl_->shift = memory(row_md, eng, const_cast<float *>(beta));
}

DnnlLayerNorm::~DnnlLayerNorm() = default;

void DnnlLayerNorm::run() {
  impl_->prim.execute(impl_->strm, {{DNNL_ARG_SRC, impl_->src},
                                    {DNNL_ARG_DST, impl_->dst},
                                    {DNNL_ARG_SCALE, impl_->scale},
                                    {DNNL_ARG_SHIFT, impl_->shift}});
  impl_->strm.wait();
}

std::string DnnlLayerNorm::impl() const { return impl_->pd.impl_info_str(); }

// oneDNN's name for a blocked layout, e.g. "acdb" (nhwc) or "aBcd8b" (channels
// in blocks of 8): dimensions outermost first, a blocked one in upper case,
// then the inner blocks.
static std::string layout_tag(const memory::desc &md) {
  const dnnl_memory_desc_t &d = md.data;
  if (d.format_kind != dnnl_blocked)
    return "non-blocked";
  const auto &blk = d.format_desc.blocking;
  std::string order;
  bool used[DNNL_MAX_NDIMS] = {false};
  for (int n = 0; n < d.ndims; ++n) {
    int best = -1;
    for (int i = 0; i < d.ndims; ++i)
      if (!used[i] && (best < 0 || blk.strides[i] > blk.strides[best]))
        best = i;
    used[best] = true;
    bool blocked = false;
    for (int b = 0; b < blk.inner_nblks; ++b)
      blocked |= blk.inner_idxs[b] == best;
    order += static_cast<char>((blocked ? 'A' : 'a') + best);
  }
  for (int b = 0; b < blk.inner_nblks; ++b)
    order += std::to_string(blk.inner_blks[b]) +
             static_cast<char>('a' + blk.inner_idxs[b]);
  return order;
}

std::string DnnlConv::impl() const {
  // e.g. "jit:avx2, src aBcd8b": the implementation and its input layout.
  return std::string(impl_->pd.impl_info_str()) + ", src " +
         layout_tag(impl_->pd.src_desc());
}

} // namespace pbbench
