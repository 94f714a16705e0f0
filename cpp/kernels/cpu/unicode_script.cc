// CPU kernel of UnicodeScript: ICU's UScriptCode of each code point (-1 where ICU rejects it: negative
// or above U+10FFFF). Built without ICU (no libicu-dev), it raises UnimplementedError.
#include "kernels/cpu/broadcast.h"
#include "ops/op_util.h"

#ifdef EF_HAVE_ICU
#include <unicode/uscript.h>
#endif

namespace ef {
namespace {

#ifdef EF_HAVE_ICU

void unicode_script_kernel(KernelContext& c) {
  const TensorImpl& in = *c.input(0);
  TensorImpl* out = c.allocate_output(0, DType::kInt32, in.shape(), false);
  const int32_t* pi = in.data<int32_t>();
  int32_t* po = out->data<int32_t>();
  for_range(in.num_elements(), [&](int64_t s, int64_t e) {
    for (int64_t i = s; i < e; ++i) {
      UErrorCode status = U_ZERO_ERROR;
      const UScriptCode script = uscript_getScript(pi[i], &status);
      po[i] = U_SUCCESS(status) ? static_cast<int32_t>(script) : -1;
    }
  }, 4096);
}

#else

[[noreturn]] void unicode_script_kernel(KernelContext& c) {
  throw_error(Code::kUnimplemented, c.op.name,
              " needs ICU: this eagerflow was built without it (install Debian's libicu-dev and rebuild)");
}

#endif

EF_REGISTER_CPU_KERNEL("UnicodeScript", unicode_script_kernel);

}  // namespace
}  // namespace ef
