// CPU kernels of Multinomial (tf.random.categorical) and StatelessMultinomial
// (tf.random.stateless_categorical): TF's inverse-CDF sampling over exp(logits - max), one
// double (two 32-bit Philox words) per sample, rows drawn in order from one generator.
#include <algorithm>
#include <cmath>
#include <vector>

#include "kernels/cpu/random_distributions.h"
#include "kernels/cpu/random_state.h"
#include "kernels/cpu/stateless_seed.h"
#include "ops/op_util.h"

namespace ef {
namespace {

struct MultinomialArgs {
  int64_t batch = 0, classes = 0, samples = 0;
};

MultinomialArgs check_args(const KernelContext& c) {
  const TensorImpl& logits = *c.input(0);
  const TensorImpl& n = *c.input(1);
  if (logits.rank() != 2)
    throw_error(Code::kInvalidArgument, "logits should be a matrix, got shape ", logits.shape().to_list_string());
  if (n.rank() != 0)
    throw_error(Code::kInvalidArgument, "num_samples should be a scalar, got shape ", n.shape().to_list_string());
  MultinomialArgs a{logits.shape()[0], logits.shape()[1], n.data<int32_t>()[0]};
  if (a.samples < 0) throw_error(Code::kInvalidArgument, "num_samples should be non-negative, got ", a.samples);
  if (a.classes <= 0 && a.batch > 0)
    throw_error(Code::kInvalidArgument, "num_classes should be positive, got ", a.classes);
  return a;
}

template <typename T, typename Out>
void sample(const T* logits, Out* out, const MultinomialArgs& a, PhiloxRandom gen) {
  SingleSampleAdapter single(&gen);
  std::vector<double> cdf(static_cast<size_t>(a.classes));
  for (int64_t b = 0; b < a.batch; ++b) {
    const T* row = logits + b * a.classes;
    double max = std::numeric_limits<double>::lowest();
    for (int64_t j = 0; j < a.classes; ++j) {
      const double x = static_cast<double>(row[j]);
      if (std::isfinite(x)) max = std::max(max, x);
    }
    double total = 0;
    for (int64_t j = 0; j < a.classes; ++j) {
      const double x = static_cast<double>(row[j]);
      if (std::isfinite(x)) total += std::exp(x - max);
      cdf[j] = total;
    }
    for (int64_t j = 0; j < a.samples; ++j) {
      const uint32_t x0 = single(), x1 = single();
      const double to_find = random::uint64_to_double(x0, x1) * total;
      out[b * a.samples + j] = static_cast<Out>(std::upper_bound(cdf.begin(), cdf.end(), to_find) - cdf.begin());
    }
  }
}

void run(KernelContext& c, const MultinomialArgs& a, const PhiloxRandom& gen) {
  const TensorImpl& logits = *c.input(0);
  const DType out_dt = c.attrs.get<DType>("output_dtype", DType::kInt64);
  TensorImpl* out = c.allocate_output(0, out_dt, Shape({a.batch, a.samples}));
  auto go = [&](auto out_tag) {
    using Out = decltype(out_tag);
    EF_DISPATCH_REAL(logits.dtype(),
                     throw_error(Code::kInvalidArgument, c.op.name, ": unsupported dtype ", tf_type_string(logits.dtype())),
                     sample<T, Out>(logits.data<T>(), out->data<Out>(), a, gen));
  };
  if (out_dt == DType::kInt32) go(int32_t());
  else go(int64_t());
}

void stateless_multinomial_kernel(KernelContext& c) {
  const MultinomialArgs a = check_args(c);
  const PhiloxRandom gen = philox_from_seed(c, 2);
  run(c, a, gen);
}

// TF reserves, per row, the sample count rounded up to 4, twice (a double takes two words),
// times 256 blocks.
void multinomial_kernel(KernelContext& c) {
  const MultinomialArgs a = check_args(c);
  const int64_t ceil4 = (a.samples + 3) / 4 * 4 * 2;
  const PhiloxRandom gen = reserve_random_stream(c, c.input(0)->dtype(), static_cast<uint64_t>(a.batch * ceil4) * 256);
  run(c, a, gen);
}

EF_REGISTER_CPU_KERNEL("StatelessMultinomial", stateless_multinomial_kernel);
EF_REGISTER_CPU_KERNEL("Multinomial", multinomial_kernel);

}  // namespace
}  // namespace ef
