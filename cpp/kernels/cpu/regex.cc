// CPU kernels of RegexFullMatch, RegexReplace and their Static forms on RE2 (UTF-8 mode, as TF
// compiles them). Built without RE2 (no libre2-dev), they raise UnimplementedError.
#include <memory>
#include <string>

#include "kernels/cpu/broadcast.h"
#include "ops/op_util.h"

#ifdef EF_HAVE_RE2
#include <re2/re2.h>
#endif

namespace ef {
namespace {

#ifdef EF_HAVE_RE2

std::shared_ptr<const RE2> compile(const std::string& pattern) {
  auto re = std::make_shared<const RE2>(pattern, RE2::Quiet);
  EF_INVALID(re->ok(), "Invalid pattern: ", pattern, ", error: ", re->error());
  return re;
}

// The compiled pattern: a Static op's from its attr (kept in the node's kernel cache), else from the
// scalar pattern input.
std::shared_ptr<const RE2> pattern_of(KernelContext& c, bool is_static) {
  if (is_static) {
    if (const void* cached = c.attrs.kernel_cache())
      return *static_cast<const std::shared_ptr<const RE2>*>(cached);
    auto re = std::make_shared<std::shared_ptr<const RE2>>(compile(c.attrs.get<std::string>("pattern")));
    return *static_cast<const std::shared_ptr<const RE2>*>(c.attrs.set_kernel_cache(re));
  }
  const TensorImpl& p = *c.input(1);
  EF_INVALID(p.rank() == 0, "Pattern must be scalar, but received ", p.shape().to_list_string());
  return compile(p.data<std::string>()[0]);
}

template <bool kStatic>
void full_match_kernel(KernelContext& c) {
  const std::shared_ptr<const RE2> re = pattern_of(c, kStatic);
  const TensorImpl& in = *c.input(0);
  TensorImpl* out = c.allocate_output(0, DType::kBool, in.shape());
  const std::string* pi = in.data<std::string>();
  bool* po = out->data<bool>();
  for_range(in.num_elements(), [&](int64_t s, int64_t e) {
    for (int64_t i = s; i < e; ++i) po[i] = RE2::FullMatch(pi[i], *re);
  }, 1024);
}

template <bool kStatic>
void replace_kernel(KernelContext& c) {
  const std::shared_ptr<const RE2> re = pattern_of(c, kStatic);
  std::string rewrite;
  if (kStatic) {
    rewrite = c.attrs.get<std::string>("rewrite");
  } else {
    const TensorImpl& r = *c.input(2);
    EF_INVALID(r.rank() == 0, "Rewrite must be scalar, but received ", r.shape().to_list_string());
    rewrite = r.data<std::string>()[0];
  }
  const bool global = c.attrs.get<bool>("replace_global", true);
  const TensorImpl& in = *c.input(0);
  TensorImpl* out = c.allocate_output(0, DType::kString, in.shape(), false);
  const std::string* pi = in.data<std::string>();
  std::string* po = out->data<std::string>();
  for_range(in.num_elements(), [&](int64_t s, int64_t e) {
    for (int64_t i = s; i < e; ++i) {
      po[i] = pi[i];
      if (global) RE2::GlobalReplace(&po[i], *re, rewrite);
      else RE2::Replace(&po[i], *re, rewrite);
    }
  }, 1024);
}

#else

[[noreturn]] void no_re2(KernelContext& c) {
  throw_error(Code::kUnimplemented, c.op.name,
              " needs RE2: this eagerflow was built without it (install Debian's libre2-dev and rebuild)");
}
template <bool>
void full_match_kernel(KernelContext& c) { no_re2(c); }
template <bool>
void replace_kernel(KernelContext& c) { no_re2(c); }

#endif

EF_REGISTER_CPU_KERNEL("RegexFullMatch", full_match_kernel<false>);
EF_REGISTER_CPU_KERNEL("StaticRegexFullMatch", full_match_kernel<true>);
EF_REGISTER_CPU_KERNEL("RegexReplace", replace_kernel<false>);
EF_REGISTER_CPU_KERNEL("StaticRegexReplace", replace_kernel<true>);

}  // namespace
}  // namespace ef
