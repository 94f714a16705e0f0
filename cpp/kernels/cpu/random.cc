// CPU kernels for the random ops: Philox4x32-10 streams keyed by (op, dtype, seed, seed2).
// Each call reserves a fresh range of counter blocks, so repeated calls differ while the
// whole sequence is reproducible after tf.random.set_seed. seed == seed2 == 0 means "not
// seeded": such calls draw a fresh random key.
#include <algorithm>
#include <limits>
#include <map>
#include <mutex>
#include <random>
#include <string>
#include <tuple>
#include <type_traits>

#include "kernels/cpu/broadcast.h"
#include "kernels/cpu/philox.h"
#include "kernels/cpu/random_state.h"
#include "ops/op_util.h"

namespace ef {

namespace {

using StreamKey = std::tuple<std::string, int, int64_t, int64_t>;

std::mutex& streams_mutex() {
  static auto* m = new std::mutex();
  return *m;
}
std::map<StreamKey, uint64_t>& streams() {
  static auto* s = new std::map<StreamKey, uint64_t>();
  return *s;
}

struct Stream {
  Philox4x32 gen;
  uint64_t first;  // first block index reserved for this call
};

// Reserves `blocks` consecutive Philox blocks for this call.
Stream reserve(const KernelContext& c, DType dtype, uint64_t blocks) {
  int64_t seed = c.attrs.get<int64_t>("seed", 0), seed2 = c.attrs.get<int64_t>("seed2", 0);
  std::lock_guard<std::mutex> lock(streams_mutex());
  if (seed == 0 && seed2 == 0) {
    static std::random_device rd;
    uint64_t k = (static_cast<uint64_t>(rd()) << 32) | rd();
    uint64_t k2 = (static_cast<uint64_t>(rd()) << 32) | rd();
    return {Philox4x32(k, k2), 0};
  }
  uint64_t& offset = streams()[StreamKey{c.op.name, static_cast<int>(dtype), seed, seed2}];
  Stream s{Philox4x32(static_cast<uint64_t>(seed), static_cast<uint64_t>(seed2)), offset};
  offset += blocks;
  return s;
}

// The `shape` input: a vector of non-negative int32/int64 dims.
Shape shape_arg(const KernelContext& c) {
  const TensorImpl& s = *c.input(0);
  if (s.dtype() != DType::kInt32 && s.dtype() != DType::kInt64)
    throw_error(Code::kInvalidArgument, "Value for attr 'T' of ", tf_type_string(s.dtype()),
                " is not in the list of allowed values: int32, int64\n\t; NodeDef: {{node ", c.op.name, "}}");
  if (s.rank() != 1)
    throw_error(Code::kInvalidArgument, "shape must be a vector of {int32,int64}, got shape ",
                s.shape().to_list_string());
  std::vector<int64_t> dims = tensor_to_int_vector(s);
  int64_t n = 1;
  for (int64_t d : dims) {
    if (d < 0) throw_error(Code::kInvalidArgument, "Dimension ", d, " must be >= 0");
    if (d != 0 && n > std::numeric_limits<int64_t>::max() / d)
      throw_error(Code::kInvalidArgument, "Shape ", Shape(dims).to_list_string(),
                  " would have more than 2**63 - 1 elements");
    n *= d;
  }
  return Shape(dims);
}

template <typename T>
constexpr int per_block() {
  return std::is_same_v<T, double> ? 2 : 4;
}

constexpr int64_t kBlockGrain = 4096;

// Fills out[0, n) block by block: gen(block, tmp) writes per_block<T>() values into tmp.
template <typename T, typename G>
void fill_blocks(T* out, int64_t n, const Stream& s, G gen) {
  constexpr int K = per_block<T>();
  const int64_t nb = (n + K - 1) / K;
  for_range(nb, [&](int64_t b0, int64_t b1) {
    T tmp[K];
    for (int64_t b = b0; b < b1; ++b) {
      gen(s.gen.block(s.first + static_cast<uint64_t>(b)), tmp);
      const int64_t base = b * K;
      const int64_t m = std::min<int64_t>(K, n - base);
      for (int64_t i = 0; i < m; ++i) out[base + i] = tmp[i];
    }
  }, kBlockGrain);
}

template <typename T>
uint64_t blocks_for(int64_t n) {
  return static_cast<uint64_t>((n + per_block<T>() - 1) / per_block<T>());
}

// [0, 1) in T: half uses 11 bits so that rounding never produces 1.0.
template <typename T>
void uniform_block(const Philox4x32::Block& b, T* out) {
  if constexpr (std::is_same_v<T, double>) {
    out[0] = uniform_double(b[0], b[1]);
    out[1] = uniform_double(b[2], b[3]);
  } else if constexpr (std::is_same_v<T, half>) {
    for (int i = 0; i < 4; ++i) out[i] = static_cast<half>(static_cast<float>(b[i] >> 21) * (1.0f / 2048.0f));
  } else {
    for (int i = 0; i < 4; ++i) out[i] = uniform_float(b[i]);
  }
}

template <typename T>
void normal_block(const Philox4x32::Block& b, T* out) {
  if constexpr (std::is_same_v<T, double>) {
    box_muller(uniform_double(b[0], b[1]), uniform_double(b[2], b[3]), &out[0], &out[1]);
  } else {
    float r[4];
    box_muller(uniform_float(b[0]), uniform_float(b[1]), &r[0], &r[1]);
    box_muller(uniform_float(b[2]), uniform_float(b[3]), &r[2], &r[3]);
    for (int i = 0; i < 4; ++i) out[i] = static_cast<T>(r[i]);
  }
}

template <typename T>
void run_uniform(KernelContext& c, const Shape& shape) {
  TensorImpl* out = c.allocate_output(0, DTypeOf<T>::value, shape);
  int64_t n = out->num_elements();
  Stream s = reserve(c, out->dtype(), blocks_for<T>(n));
  fill_blocks<T>(out->data<T>(), n, s, uniform_block<T>);
}

template <typename T>
void run_normal(KernelContext& c, const Shape& shape) {
  TensorImpl* out = c.allocate_output(0, DTypeOf<T>::value, shape);
  int64_t n = out->num_elements();
  Stream s = reserve(c, out->dtype(), blocks_for<T>(n));
  fill_blocks<T>(out->data<T>(), n, s, normal_block<T>);
}

// Truncated normal: rejection of |x| >= 2. Each group of per_block<T>() outputs owns
// kTruncBlocks blocks of the stream (it needs ~1.05 on average), so groups run in parallel.
constexpr uint64_t kTruncBlocks = 16;

template <typename T>
void run_truncated_normal(KernelContext& c, const Shape& shape) {
  constexpr int K = per_block<T>();
  TensorImpl* out = c.allocate_output(0, DTypeOf<T>::value, shape);
  const int64_t n = out->num_elements();
  const int64_t groups = (n + K - 1) / K;
  Stream s = reserve(c, out->dtype(), static_cast<uint64_t>(groups) * kTruncBlocks);
  T* po = out->data<T>();
  for_range(groups, [&](int64_t g0, int64_t g1) {
    for (int64_t g = g0; g < g1; ++g) {
      const int64_t base = g * K;
      const int64_t m = std::min<int64_t>(K, n - base);
      int64_t filled = 0;
      // Past kTruncBlocks (probability ~1e-60) the group keeps going deterministically.
      for (uint64_t j = 0; filled < m; ++j) {
        T tmp[K];
        normal_block<T>(s.gen.block(s.first + static_cast<uint64_t>(g) * kTruncBlocks + j), tmp);
        for (int i = 0; i < K && filled < m; ++i) {
          if (std::abs(static_cast<double>(tmp[i])) < 2.0) po[base + filled++] = tmp[i];
        }
      }
    }
  }, kBlockGrain);
}

template <typename Fn>
void dispatch_float(KernelContext& c, DType dt, Fn fn) {
  EF_DISPATCH_FLOAT(dt,
                    throw_error(Code::kInvalidArgument, "Value for attr 'dtype' of ", tf_type_string(dt),
                                " is not in the list of allowed values: half, bfloat16, float, double\n\t; NodeDef: {{node ",
                                c.op.name, "}}"),
                    fn(T()));
}

void random_standard_normal_kernel(KernelContext& c) {
  Shape shape = shape_arg(c);
  dispatch_float(c, c.attrs.get<DType>("dtype", DType::kFloat32),
                 [&](auto tag) { run_normal<decltype(tag)>(c, shape); });
}

void random_uniform_kernel(KernelContext& c) {
  Shape shape = shape_arg(c);
  dispatch_float(c, c.attrs.get<DType>("dtype", DType::kFloat32),
                 [&](auto tag) { run_uniform<decltype(tag)>(c, shape); });
}

void truncated_normal_kernel(KernelContext& c) {
  Shape shape = shape_arg(c);
  dispatch_float(c, c.attrs.get<DType>("dtype", DType::kFloat32),
                 [&](auto tag) { run_truncated_normal<decltype(tag)>(c, shape); });
}

// Integers in [lo, hi): lo + bits % (hi - lo), 32 bits per int32 value and 64 per int64.
template <typename T>
void run_uniform_int(KernelContext& c, const Shape& shape) {
  using U = std::make_unsigned_t<T>;
  const T lo = c.input(1)->data<T>()[0], hi = c.input(2)->data<T>()[0];
  if (!(lo < hi)) throw_error(Code::kInvalidArgument, "Need minval < maxval, got ", lo, " >= ", hi);
  TensorImpl* out = c.allocate_output(0, DTypeOf<T>::value, shape);
  const int64_t n = out->num_elements();
  const U range = static_cast<U>(static_cast<U>(hi) - static_cast<U>(lo));
  constexpr int K = std::is_same_v<T, int64_t> ? 2 : 4;
  const int64_t nb = (n + K - 1) / K;
  Stream s = reserve(c, out->dtype(), static_cast<uint64_t>(nb));
  T* po = out->data<T>();
  for_range(nb, [&](int64_t b0, int64_t b1) {
    for (int64_t b = b0; b < b1; ++b) {
      Philox4x32::Block blk = s.gen.block(s.first + static_cast<uint64_t>(b));
      U bits[K];
      if constexpr (K == 2) {
        bits[0] = (static_cast<uint64_t>(blk[0]) << 32) | blk[1];
        bits[1] = (static_cast<uint64_t>(blk[2]) << 32) | blk[3];
      } else {
        for (int i = 0; i < 4; ++i) bits[i] = blk[i];
      }
      const int64_t base = b * K;
      const int64_t m = std::min<int64_t>(K, n - base);
      for (int64_t i = 0; i < m; ++i) po[base + i] = static_cast<T>(static_cast<U>(static_cast<U>(lo) + bits[i] % range));
    }
  }, kBlockGrain);
}

void random_uniform_int_kernel(KernelContext& c) {
  Shape shape = shape_arg(c);
  const TensorImpl& lo = *c.input(1);
  const TensorImpl& hi = *c.input(2);
  check_same_dtype(c.op, lo.dtype(), hi.dtype(), 2);
  if (lo.rank() != 0) throw_error(Code::kInvalidArgument, "minval must be 0-D, got shape ", lo.shape().to_list_string());
  if (hi.rank() != 0) throw_error(Code::kInvalidArgument, "maxval must be 0-D, got shape ", hi.shape().to_list_string());
  switch (lo.dtype()) {
    case DType::kInt32: run_uniform_int<int32_t>(c, shape); break;
    case DType::kInt64: run_uniform_int<int64_t>(c, shape); break;
    default:
      throw_error(Code::kInvalidArgument, "Value for attr 'Tout' of ", tf_type_string(lo.dtype()),
                  " is not in the list of allowed values: int32, int64\n\t; NodeDef: {{node ", c.op.name, "}}");
  }
}

// out row r = in row perm[r].
template <typename T>
void gather_rows(const TensorImpl& in, TensorImpl& out, const std::vector<int64_t>& perm, int64_t row) {
  const T* src = in.data<T>();
  T* dst = out.data<T>();
  for (size_t r = 0; r < perm.size(); ++r) std::copy(src + perm[r] * row, src + (perm[r] + 1) * row, dst + r * row);
}

// Shuffles along the first dimension (Fisher-Yates with 64-bit draws, two per block).
void random_shuffle_kernel(KernelContext& c) {
  const Tensor& in = c.input(0);
  if (in->rank() == 0 || in->shape()[0] <= 1) {
    c.set_output(0, in);
    return;
  }
  const int64_t n = in->shape()[0];
  const int64_t row = n ? in->num_elements() / n : 0;
  Stream s = reserve(c, in->dtype(), static_cast<uint64_t>(n / 2));
  std::vector<int64_t> perm(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) perm[i] = i;
  Philox4x32::Block blk{};
  for (int64_t i = n - 1, k = 0; i > 0; --i, ++k) {
    if (k % 2 == 0) blk = s.gen.block(s.first + static_cast<uint64_t>(k / 2));
    uint64_t bits = (static_cast<uint64_t>(blk[(k % 2) * 2]) << 32) | blk[(k % 2) * 2 + 1];
    std::swap(perm[i], perm[static_cast<int64_t>(bits % static_cast<uint64_t>(i + 1))]);
  }
  TensorImpl* out = c.allocate_output(0, in->dtype(), in->shape());
  if (in->dtype() == DType::kString) {
    gather_rows<std::string>(*in, *out, perm, row);
    return;
  }
  EF_DISPATCH_POD(in->dtype(), throw_error(Code::kInvalidArgument, "RandomShuffle: unsupported dtype"),
                  gather_rows<T>(*in, *out, perm, row));
}

EF_REGISTER_CPU_KERNEL("RandomStandardNormal", random_standard_normal_kernel);
EF_REGISTER_CPU_KERNEL("RandomUniform", random_uniform_kernel);
EF_REGISTER_CPU_KERNEL("TruncatedNormal", truncated_normal_kernel);
EF_REGISTER_CPU_KERNEL("RandomUniformInt", random_uniform_int_kernel);
EF_REGISTER_CPU_KERNEL("RandomShuffle", random_shuffle_kernel);

}  // namespace

void reset_random_streams() {
  std::lock_guard<std::mutex> lock(streams_mutex());
  streams().clear();
}

}  // namespace ef
