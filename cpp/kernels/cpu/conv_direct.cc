// The direct float32 convolution's driver: picks the ISA's micro-kernels, packs the filter once
// per op, and splits the output pixels over the pool.
#include "kernels/cpu/conv_direct.h"

#include <algorithm>
#include <atomic>
#include <new>
#include <vector>

#include "core/errors.h"
#include "core/threadpool.h"
#include "kernels/cpu/conv_direct_impl.h"

namespace ef {
namespace {

bool cpu_has(const char* name) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (std::string(name) == "avx512") return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl");
  if (std::string(name) == "avx2") return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#endif
  return std::string(name) == "generic";
}

// The variants, fastest first.
const DirectIsa* variants[] = {&direct_isa_avx512(), &direct_isa_avx2(), &direct_isa_generic()};

const DirectIsa* best() {
  for (const DirectIsa* v : variants)
    if (v->built && cpu_has(v->name)) return v;
  return nullptr;
}

// The variant in use; null: the im2col path.
std::atomic<const DirectIsa*>& active() {
  static std::atomic<const DirectIsa*> a{best()};
  return a;
}

// Buffers the micro-kernels load whole vectors from: 64-byte aligned, so no load splits a cache line.
struct AlignedFloats {
  explicit AlignedFloats(int64_t n, bool zero = false)
      : p(new (std::align_val_t(64)) float[static_cast<size_t>(std::max<int64_t>(n, 1))]) {
    if (zero) std::fill(p, p + n, 0.0f);
  }
  ~AlignedFloats() { operator delete[](p, std::align_val_t(64)); }
  AlignedFloats(const AlignedFloats&) = delete;
  AlignedFloats& operator=(const AlignedFloats&) = delete;
  float* data() const { return p; }
  float* p;
};

// About this many output pixels a task: the inputs they read stay in L2, and there are several
// tasks a thread so a preempted thread does not hold the others back.
constexpr int64_t kChunkPixels = 256;
// Below this many multiply-adds the convolution runs on the calling thread.
constexpr int64_t kSplitMacs = int64_t(1) << 20;

}  // namespace

std::string conv_kernel() {
  const DirectIsa* a = active().load();
  return a ? a->name : "im2col";
}

void set_conv_kernel(const std::string& name) {
  if (name == "auto") return active().store(best());
  if (name == "im2col") return active().store(nullptr);
  for (const DirectIsa* v : variants)
    if (name == v->name) {
      if (!v->built || !cpu_has(v->name))
        throw_error(Code::kInvalidArgument, "set_conv_kernel: this CPU or build has no '", name, "' kernel");
      return active().store(v);
    }
  throw_error(Code::kInvalidArgument, "set_conv_kernel: unknown kernel '", name,
              "' (auto, avx512, avx2, generic, im2col)");
}

bool conv_direct_enabled() { return active().load() != nullptr; }

namespace {
// The variant for an op that conv_direct_enabled() sent here: the best one if another thread
// switched to im2col in between.
const DirectIsa& isa_for_op() {
  const DirectIsa* a = active().load();
  return a ? *a : *best();
}
}  // namespace

void conv2d_direct_f32(const Conv2DGeometry& g, const float* in, const float* filter, float* out, const float* bias,
                       bool relu) {
  const DirectIsa& isa = isa_for_op();
  const int64_t taps = g.k_h * g.k_w, w = isa.w, nvec = (g.out_c + w - 1) / w;
  const DirectTile& tile = isa.tile_for(nvec);
  // Packed filter: per block of tile.nvb vectors, [tap][in_c][the block's channels, zero past out_c].
  AlignedFloats packed(taps * g.in_c * nvec * w);
  for (int64_t b0 = 0; b0 < nvec; b0 += tile.nvb) {
    const int64_t cols = std::min<int64_t>(tile.nvb, nvec - b0) * w, co0 = b0 * w;
    const int64_t valid = std::min(cols, g.out_c - co0);
    float* dst = packed.data() + co0 * taps * g.in_c;
    for (int64_t k = 0; k < taps * g.in_c; ++k, dst += cols) {
      std::copy(filter + k * g.out_c + co0, filter + k * g.out_c + co0 + valid, dst);
      std::fill(dst + valid, dst + cols, 0.0f);
    }
  }
  std::vector<float> zeros(static_cast<size_t>(g.in_c), 0.0f);
  AlignedFloats bias_padded(bias ? nvec * w : 0, true);
  if (bias) std::copy(bias, bias + g.out_c, bias_padded.data());
  const DirectConv c{&g, in, packed.data(), out, zeros.data(), nvec, bias ? bias_padded.data() : nullptr, relu};

  const int64_t pixels = g.batch * g.out_h * g.out_w;
  const int64_t chunk = (kChunkPixels + tile.rw - 1) / tile.rw * tile.rw;
  const int64_t nchunks = (pixels + chunk - 1) / chunk;
  const int64_t macs = pixels * taps * g.in_c * g.out_c;
  const int64_t parts = macs < kSplitMacs ? 1 : std::max<int64_t>(1, std::min<int64_t>(num_threads(), nchunks));
  const size_t scratch_bytes = static_cast<size_t>(direct_conv_scratch(taps, tile.rw, std::min(chunk, pixels))) +
                               (row_tiles(g, nvec, tile.nvb) ? sizeof(float) * row_cache_floats(g, tile.rw) + 64 : 0);
  std::atomic<int64_t> next{0};
  parallel_for(parts, 1, [&](int64_t, int64_t) {
    AlignedFloats scratch(int64_t(scratch_bytes / sizeof(float)) + 1);
    for (int64_t i; (i = next.fetch_add(1)) < nchunks;)
      tile.run(c, i * chunk, std::min(pixels, (i + 1) * chunk), scratch.data());
  });
}

void conv2d_backprop_filter_direct_f32(const Conv2DGeometry& g, const float* in, const float* dout, float* dfilter) {
  const DirectIsa& isa = isa_for_op();
  const int64_t w = isa.w, nvec = (g.out_c + w - 1) / w, ldd = nvec * w;
  const DirectTile& tile = isa.tile_for(nvec);
  const int64_t rows = g.k_h * g.k_w * g.in_c, fsize = rows * ldd;
  const int64_t pixels = g.batch * g.out_h * g.out_w;
  const int64_t chunk = kChunkPixels / 2;  // its padded out_backprop rows stay in L1/L2 across the taps
  const int64_t nchunks = (pixels + chunk - 1) / chunk;
  const int64_t macs = pixels * rows * g.out_c;
  const int64_t parts = macs < kSplitMacs ? 1 : std::max<int64_t>(1, std::min<int64_t>(num_threads(), nchunks));
  // Each thread sums into its own [tap][in_c][ldd] slot; the slots are added at the end.
  AlignedFloats sums(parts * fsize, true);
  const DirectFilterGrad c{&g, in, dout, nvec};
  const size_t scratch_bytes = static_cast<size_t>(filter_grad_scratch(std::min(chunk, pixels), nvec, isa.w));
  std::atomic<int64_t> next{0};
  parallel_for(parts, 1, [&](int64_t p0, int64_t) {
    AlignedFloats scratch(int64_t(scratch_bytes / sizeof(float)) + 1);
    for (int64_t i; (i = next.fetch_add(1)) < nchunks;)
      tile.filter_grad(c, i * chunk, std::min(pixels, (i + 1) * chunk), scratch.data(), sums.data() + p0 * fsize);
  });
  for (int64_t r = 0; r < rows; ++r) {
    float* dst = dfilter + r * g.out_c;
    std::copy(sums.data() + r * ldd, sums.data() + r * ldd + g.out_c, dst);
    for (int64_t p = 1; p < parts; ++p) {
      const float* part = sums.data() + p * fsize + r * ldd;
      for (int64_t o = 0; o < g.out_c; ++o) dst[o] += part[o];
    }
  }
}

void conv2d_backprop_input_direct_f32(const Conv2DGeometry& g, const float* filter, const float* dout, float* din) {
  const DirectIsa& isa = isa_for_op();
  const int64_t taps = g.k_h * g.k_w, w = isa.w, nvec = (g.in_c + w - 1) / w;
  const DirectTile& tile = isa.tile_for(nvec);
  // Packed filter: per block of tile.nvb vectors of input channels, [tap][out_c][the block's in_c].
  AlignedFloats packed(taps * g.out_c * nvec * w);
  for (int64_t b0 = 0; b0 < nvec; b0 += tile.nvb) {
    const int64_t cols = std::min<int64_t>(tile.nvb, nvec - b0) * w, ci0 = b0 * w;
    const int64_t valid = std::min(cols, g.in_c - ci0);
    float* dst = packed.data() + ci0 * taps * g.out_c;
    for (int64_t t = 0; t < taps; ++t)
      for (int64_t o = 0; o < g.out_c; ++o, dst += cols) {
        const float* f = filter + (t * g.in_c + ci0) * g.out_c + o;
        for (int64_t j = 0; j < valid; ++j) dst[j] = f[j * g.out_c];
        std::fill(dst + valid, dst + cols, 0.0f);
      }
  }
  std::vector<float> zeros(static_cast<size_t>(g.out_c), 0.0f);
  const DirectConv c{&g, dout, packed.data(), din, zeros.data(), nvec};
  const int64_t rows = g.batch * g.in_h;
  const int64_t per_task = std::max<int64_t>(1, kChunkPixels / std::max<int64_t>(g.in_w, 1));
  const int64_t ntasks = (rows + per_task - 1) / per_task;
  const int64_t macs = g.batch * g.out_h * g.out_w * taps * g.in_c * g.out_c;
  const int64_t parts = macs < kSplitMacs ? 1 : std::max<int64_t>(1, std::min<int64_t>(num_threads(), ntasks));
  const size_t scratch_bytes = static_cast<size_t>(direct_conv_scratch(taps, tile.rw, 0));
  std::atomic<int64_t> next{0};
  parallel_for(parts, 1, [&](int64_t, int64_t) {
    AlignedFloats scratch(int64_t(scratch_bytes / sizeof(float)) + 1);
    for (int64_t i; (i = next.fetch_add(1)) < ntasks;)
      tile.input_grad(c, i * per_task, std::min(rows, (i + 1) * per_task), scratch.data());
  });
}

}  // namespace ef
