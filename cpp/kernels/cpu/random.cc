// CPU kernels for the stateful random ops: one Philox stream per (op, dtype, seed, seed2), as TF
// keeps one per cached kernel. Each call reserves 256 counter blocks per output value (TF's
// rule), so the values match TF's and the sequence replays after tf.random.set_seed.
// seed == seed2 == 0 means "not seeded": such a stream starts from a random key.
#include <algorithm>
#include <limits>
#include <map>
#include <mutex>
#include <random>
#include <string>
#include <tuple>
#include <type_traits>

#include "kernels/cpu/broadcast.h"
#include "kernels/cpu/random_distributions.h"
#include "kernels/cpu/random_args.h"
#include "kernels/cpu/random_state.h"
#include "ops/op_util.h"

namespace ef {

namespace {

using StreamKey = std::tuple<std::string, int, int64_t, int64_t>;

std::mutex& streams_mutex() {
  static auto* m = new std::mutex();
  return *m;
}
std::map<StreamKey, PhiloxRandom>& streams() {
  static auto* s = new std::map<StreamKey, PhiloxRandom>();
  return *s;
}

// TF reserves 256 blocks per output value, whatever the distribution uses.
PhiloxRandom reserve_outputs(const KernelContext& c, DType dtype, int64_t n) {
  return reserve_random_stream(c, dtype, static_cast<uint64_t>(n) * random::kReservedSamplesPerOutput);
}

template <template <typename> class Dist, typename T>
void run_float(KernelContext& c, const Shape& shape) {
  TensorImpl* out = c.allocate_output(0, DTypeOf<T>::value, shape);
  const int64_t n = out->num_elements();
  random::fill_philox(reserve_outputs(c, out->dtype(), n), out->data<T>(), n, Dist<T>());
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
  Shape shape = random_shape_arg(c, 0);
  dispatch_float(c, c.attrs.get<DType>("dtype", DType::kFloat32),
                 [&](auto tag) { run_float<random::Normal, decltype(tag)>(c, shape); });
}

void random_uniform_kernel(KernelContext& c) {
  Shape shape = random_shape_arg(c, 0);
  dispatch_float(c, c.attrs.get<DType>("dtype", DType::kFloat32),
                 [&](auto tag) { run_float<random::Uniform, decltype(tag)>(c, shape); });
}

void truncated_normal_kernel(KernelContext& c) {
  Shape shape = random_shape_arg(c, 0);
  dispatch_float(c, c.attrs.get<DType>("dtype", DType::kFloat32),
                 [&](auto tag) { run_float<random::TruncatedNormal, decltype(tag)>(c, shape); });
}

template <typename T>
void run_uniform_int(KernelContext& c, const Shape& shape) {
  const T lo = c.input(1)->data<T>()[0], hi = c.input(2)->data<T>()[0];
  TensorImpl* out = c.allocate_output(0, DTypeOf<T>::value, shape);
  const int64_t n = out->num_elements();
  if (n == 0) return;  // TF checks minval < maxval only for a non-empty output
  if (!(lo < hi)) throw_error(Code::kInvalidArgument, "Need minval < maxval, got ", lo, " >= ", hi);
  random::fill_philox(reserve_outputs(c, out->dtype(), n), out->data<T>(), n, random::UniformInt<T>(lo, hi));
}

void random_uniform_int_kernel(KernelContext& c) {
  Shape shape = random_shape_arg(c, 0);
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

// TF's RandomShuffle: forward Fisher-Yates over row indices, one 32-bit word per swap.
void random_shuffle_kernel(KernelContext& c) {
  const Tensor& in = c.input(0);
  if (in->rank() == 0 || in->num_elements() <= 1 || in->shape()[0] <= 1) {
    c.set_output(0, in);
    return;
  }
  const int64_t n = in->shape()[0];
  if (n >= std::numeric_limits<int32_t>::max())
    throw_error(Code::kInvalidArgument, "RandomShuffle: the first dimension must be smaller than 2**31 - 1");
  const int64_t row = in->num_elements() / n;
  PhiloxRandom gen = reserve_random_stream(c, in->dtype(), static_cast<uint64_t>((n - 1 + 3) / 4));
  SingleSampleAdapter single(&gen);
  std::vector<int64_t> perm(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) perm[i] = i;
  for (int64_t i = 0; i < n - 1; ++i) std::swap(perm[i], perm[i + single() % static_cast<uint32_t>(n - i)]);
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

PhiloxRandom reserve_random_stream(const KernelContext& c, DType dtype, uint64_t blocks) {
  int64_t seed = c.attrs.get<int64_t>("seed", 0), seed2 = c.attrs.get<int64_t>("seed2", 0);
  std::lock_guard<std::mutex> lock(streams_mutex());
  auto [it, fresh] = streams().try_emplace(StreamKey{c.op.name, static_cast<int>(dtype), seed, seed2});
  if (fresh) {
    if (seed == 0 && seed2 == 0) {
      static std::random_device rd;
      it->second = PhiloxRandom((static_cast<uint64_t>(rd()) << 32) | rd(), (static_cast<uint64_t>(rd()) << 32) | rd());
    } else {
      it->second = PhiloxRandom(static_cast<uint64_t>(seed), static_cast<uint64_t>(seed2));
    }
  }
  PhiloxRandom local = it->second;
  it->second.skip(blocks);
  return local;
}

Shape random_shape_arg(const KernelContext& c, size_t input) {
  const TensorImpl& s = *c.input(input);
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

void reset_random_streams() {
  std::lock_guard<std::mutex> lock(streams_mutex());
  streams().clear();
}

}  // namespace ef
