// CPU kernels for StringJoin and StringLength.
#include <string>

#include "kernels/cpu/broadcast.h"
#include "kernels/cpu/utf8.h"
#include "ops/op_util.h"

namespace ef {
namespace {

void string_join_kernel(KernelContext& c) {
  const std::string sep = c.attrs.get<std::string>("separator", "");
  const Shape* shape = nullptr;
  for (size_t i = 0; i < c.num_inputs(); ++i) {
    const TensorImpl& t = *c.input(i);
    check_same_dtype(c.op, DType::kString, t.dtype(), static_cast<int>(i));
    if (t.rank() == 0) continue;
    if (!shape) {
      shape = &t.shape();
    } else if (*shape != t.shape()) {
      throw_error(Code::kInvalidArgument, "Input shapes do not match: ", shape->to_list_string(), " vs. ",
                  t.shape().to_list_string());
    }
  }
  TensorImpl* out = c.allocate_output(0, DType::kString, shape ? *shape : Shape());
  std::string* po = out->data<std::string>();
  const int64_t n = out->num_elements();
  for_range(n, [&](int64_t s, int64_t e) {
    for (int64_t j = s; j < e; ++j) {
      std::string& r = po[j];
      for (size_t i = 0; i < c.num_inputs(); ++i) {
        const TensorImpl& t = *c.input(i);
        if (i) r += sep;
        r += t.data<std::string>()[t.rank() == 0 ? 0 : j];
      }
    }
  }, 4096);
}

void string_length_kernel(KernelContext& c) {
  const TensorImpl& in = *c.input(0);
  check_same_dtype(c.op, DType::kString, in.dtype(), 0);
  const std::string unit = c.attrs.get<std::string>("unit", "BYTE");
  if (unit != "BYTE" && unit != "UTF8_CHAR")
    throw_error(Code::kInvalidArgument, "Value for attr 'unit' of \"", unit,
                "\" is not in the list of allowed values: \"BYTE\", \"UTF8_CHAR\"\n\t; NodeDef: {{node StringLength}}");
  TensorImpl* out = c.allocate_output(0, DType::kInt32, in.shape());
  const bool bytes = unit == "BYTE";
  const std::string* pi = in.data<std::string>();
  int32_t* po = out->data<int32_t>();
  for_range(in.num_elements(), [&](int64_t s, int64_t e) {
    for (int64_t i = s; i < e; ++i) po[i] = bytes ? static_cast<int32_t>(pi[i].size()) : static_cast<int32_t>(utf8_length(pi[i]));
  });
}

EF_REGISTER_CPU_KERNEL("StringJoin", string_join_kernel);
EF_REGISTER_CPU_KERNEL("StringLength", string_length_kernel);

}  // namespace
}  // namespace ef
