// CPU kernels of the counter-based random ops: StatelessRandom*V2 (Philox from a key and a
// counter), StatelessRandomGetKeyCounter (TF's seed scrambling), RngReadAndSkip (the state of
// tf.random.Generator) and NonDeterministicInts. The same key and counter give TF's values.
#include <mutex>
#include <random>

#include "kernels/cpu/random_args.h"
#include "kernels/cpu/random_distributions.h"
#include "kernels/cpu/stateless_seed.h"
#include "ops/op_util.h"
#include "ops/resource_ops.h"

namespace ef {

// TF's GenerateKey: one Philox block of the seed under a fixed key gives the key and the counter.
PhiloxRandom philox_from_seed(const KernelContext& c, size_t input) {
  const TensorImpl& seed = *c.input(input);
  if (seed.rank() != 1 || seed.shape()[0] != 2)
    throw_error(Code::kInvalidArgument, "seed must have shape [2], not ", seed.shape().to_list_string());
  const std::vector<int64_t> s = tensor_to_int_vector(seed);
  const uint64_t s0 = static_cast<uint64_t>(s[0]), s1 = static_cast<uint64_t>(s[1]);
  PhiloxRandom mixer({static_cast<uint32_t>(s0), static_cast<uint32_t>(s0 >> 32), static_cast<uint32_t>(s1),
                      static_cast<uint32_t>(s1 >> 32)},
                     {0x3ec8f720u, 0x02461e29u});
  const PhiloxRandom::ResultType mix = mixer();
  return PhiloxRandom({0, 0, mix[2], mix[3]}, {mix[0], mix[1]});
}

namespace {

constexpr int32_t kAlgPhilox = 1, kAlgThreeFry = 2, kAlgAutoSelect = 3;

uint64_t word(uint32_t lo, uint32_t hi) { return lo | (static_cast<uint64_t>(hi) << 32); }

// The generator of a V2 op's key (input 1), counter (input 2) and alg (input 3).
PhiloxRandom philox_from_key_counter(const KernelContext& c) {
  const TensorImpl& key = *c.input(1);
  const TensorImpl& counter = *c.input(2);
  const TensorImpl& alg = *c.input(3);
  if (key.rank() != 1 || key.shape()[0] != 1)
    throw_error(Code::kInvalidArgument, "key must have shape [1], not ", key.shape().to_list_string(),
                ". (Note that batched keys are not supported yet.)");
  if (counter.rank() != 1 || counter.shape()[0] < 2)
    throw_error(Code::kInvalidArgument, "counter must be a vector with length at least 2; got shape: ",
                counter.shape().to_list_string(), ". (Note that batched counters are not supported yet.)");
  if (alg.rank() != 0)
    throw_error(Code::kInvalidArgument, "alg must be a scalar; got a tensor of shape ", alg.shape().to_list_string());
  const int32_t a = alg.data<int32_t>()[0];
  if (a != kAlgPhilox && a != kAlgAutoSelect) throw_error(Code::kInvalidArgument, "Unsupported algorithm id: ", a);
  const int64_t* k = key.data<int64_t>();
  const int64_t* ctr = counter.data<int64_t>();
  return PhiloxRandom::from_counter_key(static_cast<uint64_t>(ctr[0]), static_cast<uint64_t>(ctr[1]),
                                        static_cast<uint64_t>(k[0]));
}

template <template <typename> class Dist>
void float_v2_kernel(KernelContext& c) {
  const Shape shape = random_shape_arg(c, 0);
  const PhiloxRandom gen = philox_from_key_counter(c);
  const DType dt = c.attrs.get<DType>("dtype", DType::kFloat32);
  TensorImpl* out = c.allocate_output(0, dt, shape);
  const int64_t n = out->num_elements();
  EF_DISPATCH_FLOAT(dt, throw_error(Code::kInvalidArgument, c.op.name, ": unsupported dtype ", tf_type_string(dt)),
                    random::fill_philox(gen, out->data<T>(), n, Dist<T>()));
}

void uniform_int_v2_kernel(KernelContext& c) {
  const Shape shape = random_shape_arg(c, 0);
  const PhiloxRandom gen = philox_from_key_counter(c);
  const TensorImpl& lo = *c.input(4);
  const TensorImpl& hi = *c.input(5);
  if (lo.rank() != 0) throw_error(Code::kInvalidArgument, "minval must be 0-D, got shape ", lo.shape().to_list_string());
  if (hi.rank() != 0) throw_error(Code::kInvalidArgument, "maxval must be 0-D, got shape ", hi.shape().to_list_string());
  TensorImpl* out = c.allocate_output(0, lo.dtype(), shape);
  const int64_t n = out->num_elements();
  auto run = [&](auto tag) {
    using T = decltype(tag);
    const T l = lo.data<T>()[0], h = hi.data<T>()[0];
    if (n == 0) return;  // TF checks minval < maxval only for a non-empty output
    if (!(l < h)) throw_error(Code::kInvalidArgument, "Need minval < maxval, got ", l, " >= ", h);
    random::fill_philox(gen, out->data<T>(), n, random::UniformInt<T>(l, h));
  };
  if (lo.dtype() == DType::kInt32) run(int32_t());
  else run(int64_t());
}

void full_int_v2_kernel(KernelContext& c) {
  const Shape shape = random_shape_arg(c, 0);
  const PhiloxRandom gen = philox_from_key_counter(c);
  const DType dt = c.attrs.get<DType>("dtype", DType::kInt64);
  TensorImpl* out = c.allocate_output(0, dt, shape);
  const int64_t n = out->num_elements();
  if (dt == DType::kInt32) random::fill_philox(gen, out->data<int32_t>(), n, random::UniformFullInt<int32_t>());
  else random::fill_philox(gen, out->data<int64_t>(), n, random::UniformFullInt<int64_t>());
}

void get_key_counter_kernel(KernelContext& c) {
  const PhiloxRandom gen = philox_from_seed(c, 0);
  const auto& ctr = gen.counter();
  const auto& key = gen.key();
  c.allocate_output(0, DType::kInt64, Shape({1}))->data<int64_t>()[0] = static_cast<int64_t>(word(key[0], key[1]));
  int64_t* pc = c.allocate_output(1, DType::kInt64, Shape({2}))->data<int64_t>();
  pc[0] = static_cast<int64_t>(word(ctr[0], ctr[1]));
  pc[1] = static_cast<int64_t>(word(ctr[2], ctr[3]));
  if (c.op.name == "StatelessRandomGetKeyCounterAlg")
    c.allocate_output(2, DType::kInt32, Shape({}))->data<int32_t>()[0] = kAlgPhilox;
}

void get_alg_kernel(KernelContext& c) { c.allocate_output(0, DType::kInt32, Shape({}))->data<int32_t>()[0] = kAlgPhilox; }

// Returns the Generator's state and moves its counter 256 blocks per value to be drawn (delta).
void read_and_skip_kernel(KernelContext& c) {
  VariableState* v = &variable_state(c.op, c.input(0));
  const int32_t alg = c.input(1)->data<int32_t>()[0];
  const uint64_t delta = static_cast<uint64_t>(c.input(2)->data<int64_t>()[0]);
  if (alg == kAlgThreeFry)
    throw_error(Code::kUnimplemented, "Non-XLA devices don't support the ThreeFry algorithm.");
  if (alg != kAlgPhilox && alg != kAlgAutoSelect) throw_error(Code::kInvalidArgument, "Unsupported algorithm id: ", alg);
  std::lock_guard<std::mutex> l(v->mu);
  const Tensor cur = variable_value(*v);
  if (cur->dtype() != DType::kInt64)
    throw_error(Code::kInvalidArgument, "dtype of RNG state variable must be int64, not ", tf_type_string(cur->dtype()));
  if (cur->rank() != 1)
    throw_error(Code::kInvalidArgument, "RNG state must have one and only one dimension, not ", cur->rank());
  if (cur->num_elements() < 3)
    throw_error(Code::kInvalidArgument, "The size of the state must be at least 3; got ", cur->num_elements());
  const int64_t* s = cur->data<int64_t>();
  int64_t* out = c.allocate_output(0, DType::kInt64, Shape({3}), false)->data<int64_t>();
  std::copy(s, s + 3, out);
  PhiloxRandom gen = PhiloxRandom::from_counter_key(static_cast<uint64_t>(s[0]), static_cast<uint64_t>(s[1]),
                                                    static_cast<uint64_t>(s[2]));
  gen.skip(delta * static_cast<uint64_t>(random::kReservedSamplesPerOutput));
  // A fresh tensor: readers may still hold the old value.
  Tensor next = TensorImpl::empty(DType::kInt64, cur->shape());
  int64_t* pn = next->data<int64_t>();
  std::copy(s, s + cur->num_elements(), pn);
  const auto& ctr = gen.counter();
  pn[0] = static_cast<int64_t>(word(ctr[0], ctr[1]));
  pn[1] = static_cast<int64_t>(word(ctr[2], ctr[3]));
  v->value = next;
}

void non_deterministic_ints_kernel(KernelContext& c) {
  const Shape shape = random_shape_arg(c, 0);
  const DType dt = c.attrs.get<DType>("dtype", DType::kInt64);
  TensorImpl* out = c.allocate_output(0, dt, shape);
  static std::mutex mu;
  static std::random_device rd;
  std::lock_guard<std::mutex> l(mu);
  for (int64_t i = 0; i < out->num_elements(); ++i) {
    const uint64_t x = (static_cast<uint64_t>(rd()) << 32) | rd();
    if (dt == DType::kInt32) out->data<int32_t>()[i] = static_cast<int32_t>(x);
    else out->data<int64_t>()[i] = static_cast<int64_t>(x);
  }
}

EF_REGISTER_CPU_KERNEL("StatelessRandomUniformV2", float_v2_kernel<random::Uniform>);
EF_REGISTER_CPU_KERNEL("StatelessRandomNormalV2", float_v2_kernel<random::Normal>);
EF_REGISTER_CPU_KERNEL("StatelessTruncatedNormalV2", float_v2_kernel<random::TruncatedNormal>);
EF_REGISTER_CPU_KERNEL("StatelessRandomUniformIntV2", uniform_int_v2_kernel);
EF_REGISTER_CPU_KERNEL("StatelessRandomUniformFullIntV2", full_int_v2_kernel);
EF_REGISTER_CPU_KERNEL("StatelessRandomGetKeyCounter", get_key_counter_kernel);
EF_REGISTER_CPU_KERNEL("StatelessRandomGetKeyCounterAlg", get_key_counter_kernel);
EF_REGISTER_CPU_KERNEL("StatelessRandomGetAlg", get_alg_kernel);
EF_REGISTER_CPU_KERNEL("RngReadAndSkip", read_and_skip_kernel);
EF_REGISTER_CPU_KERNEL("NonDeterministicInts", non_deterministic_ints_kernel);

}  // namespace
}  // namespace ef
