// CPU kernels for Assert, CheckNumerics and EagerPyFunc (which calls back into a registered function).
#include <mutex>
#include <unordered_map>

#include "eager/check_numerics.h"
#include "kernels/cpu/print_format.h"
#include "kernels/cpu/py_func.h"
#include "ops/op_util.h"

namespace ef {
namespace {

// One data item of an Assert message as TF's SummarizeValue shows it (strings unquoted).
std::string summarize(const TensorImpl& t, int64_t n) {
  if (t.dtype() == DType::kString && t.rank() == 0) return *t.data<std::string>();
  std::string s = format_tensor_for_print(t, n);
  if (t.rank() == 1 && s.size() >= 2 && s.front() == '[' && s.back() == ']') s = s.substr(1, s.size() - 2);
  return s;
}

void assert_kernel(KernelContext& c) {
  const TensorImpl& cond = *c.input(0);
  check_same_dtype(c.op, DType::kBool, cond.dtype(), 0);
  if (cond.num_elements() != 1)
    throw_error(Code::kInvalidArgument, "In[0] expected to be a scalar, got shape ", cond.shape().to_list_string());
  if (*cond.data<bool>()) return;
  const int64_t n = c.attrs.get<int64_t>("summarize", 3);
  std::string msg = "assertion failed: ";
  for (size_t i = 1; i < c.num_inputs(); ++i) msg += (i > 1 ? " [" : "[") + summarize(*c.input(i), n) + "]";
  throw OpError(Code::kInvalidArgument, msg);
}

void check_numerics_kernel(KernelContext& c) {
  const Tensor& in = c.input(0);
  const NumericCounts counts = count_non_finite(*in);
  if (counts.bad())
    throw_error(Code::kInvalidArgument, c.attrs.get<std::string>("message", ""), " : ", non_finite_text(counts, false));
  c.set_output(0, in);
}

std::mutex& registry_mutex() {
  static std::mutex m;
  return m;
}

std::unordered_map<int64_t, PyFuncCallback>& registry() {
  static std::unordered_map<int64_t, PyFuncCallback> r;
  return r;
}

void py_func_kernel(KernelContext& c) {
  const int64_t token = c.attrs.get<int64_t>("token");
  PyFuncCallback fn;
  {
    std::lock_guard<std::mutex> lock(registry_mutex());
    auto it = registry().find(token);
    if (it == registry().end()) throw_error(Code::kInvalidArgument, "Function token ", token, " is not registered.");
    fn = it->second;
  }
  std::vector<Tensor> out = fn(c.inputs);
  const auto tout = c.attrs.get<std::vector<int64_t>>("Tout", {});
  if (out.size() != tout.size())
    throw_error(Code::kInvalidArgument, "Expected ", tout.size(), " outputs from the Python function, got ", out.size());
  for (size_t i = 0; i < out.size(); ++i) c.set_output(i, std::move(out[i]));
}

EF_REGISTER_CPU_KERNEL("Assert", assert_kernel);
EF_REGISTER_CPU_KERNEL("CheckNumerics", check_numerics_kernel);
EF_REGISTER_CPU_KERNEL("EagerPyFunc", py_func_kernel);

}  // namespace

int64_t register_py_func(PyFuncCallback fn) {
  static int64_t next = 0;
  std::lock_guard<std::mutex> lock(registry_mutex());
  registry()[++next] = std::move(fn);
  return next;
}

void unregister_py_func(int64_t token) {
  std::lock_guard<std::mutex> lock(registry_mutex());
  registry().erase(token);
}

}  // namespace ef
