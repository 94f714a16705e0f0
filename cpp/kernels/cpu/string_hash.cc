// CPU kernels of StringToHashBucketFast (Fingerprint64 % num_buckets) and StringToHashBucketStrong
// (keyed SipHash-2-4 % num_buckets).
#include <string>
#include <vector>

#include "kernels/cpu/broadcast.h"
#include "kernels/cpu/fingerprint.h"
#include "ops/op_util.h"

namespace ef {
namespace {

template <typename Hash>
void hash_buckets(KernelContext& c, Hash hash) {
  const TensorImpl& in = *c.input(0);
  infer_for_kernel(c);  // checks num_buckets
  const uint64_t buckets = static_cast<uint64_t>(c.attrs.get<int64_t>("num_buckets"));
  TensorImpl* out = c.allocate_output(0, DType::kInt64, in.shape());
  const std::string* pi = in.data<std::string>();
  int64_t* po = out->data<int64_t>();
  for_range(in.num_elements(), [&](int64_t s, int64_t e) {
    for (int64_t i = s; i < e; ++i) po[i] = static_cast<int64_t>(hash(pi[i]) % buckets);
  }, 8192);
}

void hash_bucket_fast_kernel(KernelContext& c) {
  hash_buckets(c, [](const std::string& s) { return fingerprint64(s.data(), s.size()); });
}

void hash_bucket_strong_kernel(KernelContext& c) {
  const auto key = c.attrs.get<std::vector<int64_t>>("key", {});
  EF_INVALID(key.size() == 2, "Key must have 2 elements");
  const uint64_t k[2] = {static_cast<uint64_t>(key[0]), static_cast<uint64_t>(key[1])};
  hash_buckets(c, [&k](const std::string& s) { return siphash24(k, s.data(), s.size()); });
}

EF_REGISTER_CPU_KERNEL("StringToHashBucketFast", hash_bucket_fast_kernel);
EF_REGISTER_CPU_KERNEL("StringToHashBucketStrong", hash_bucket_strong_kernel);

}  // namespace
}  // namespace ef
