// CPU kernels for Assert, CheckNumerics and EagerPyFunc (which calls back into a registered function).
#include <chrono>
#include <cstdio>
#include <mutex>
#include <type_traits>
#include <unordered_map>

#include "kernels/cpu/numerics.h"
#include "kernels/cpu/py_func.h"
#include "ops/op_util.h"
#include "ops/shape_merge.h"

namespace ef {
namespace {

template <typename T>
std::string element_text(const TensorImpl& t, int64_t i) {
  const T v = t.data<T>()[i];
  if constexpr (std::is_same_v<T, bool>) {
    return v ? "1" : "0";
  } else if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, half> || std::is_same_v<T, bfloat16>) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", static_cast<double>(static_cast<float>(v)));
    return buf;
  } else if constexpr (std::is_same_v<T, complex64> || std::is_same_v<T, complex128>) {
    return str_cat("(", v.real(), ",", v.imag(), ")");
  } else if constexpr (std::is_same_v<T, uint64_t>) {
    return std::to_string(v);
  } else {
    return std::to_string(static_cast<int64_t>(v));
  }
}

std::string element(const TensorImpl& t, int64_t i) {
  if (t.dtype() == DType::kString) return t.data<std::string>()[i];
  std::string s;
  EF_DISPATCH_POD(t.dtype(), return "?", s = element_text<T>(t, i));
  return s;
}

// One dimension of TF's SummarizeValue: the last dimension as "a b c" ("..." where the limit cuts
// it), outer ones as "[...][...]"; no new "[" once the limit is reached.
void summarize_dim(const TensorImpl& t, int dim, int64_t limit, int64_t& index, std::string& out) {
  if (index >= limit) return;
  const int64_t n = t.shape().dim(dim);
  if (dim == t.rank() - 1) {
    for (int64_t i = 0; i < n; ++i) {
      if (index >= limit) {
        out += "...";
        return;
      }
      if (i > 0) out += " ";
      out += element(t, index++);
    }
    return;
  }
  for (int64_t i = 0; i < n && index < limit; ++i) {
    out += "[";
    summarize_dim(t, dim + 1, limit, index, out);
    out += "]";
  }
}

// One data item of an Assert message as TF's Tensor::SummarizeValue shows it (strings unquoted).
std::string summarize(const TensorImpl& t, int64_t n) {
  const int64_t total = t.num_elements();
  const int64_t limit = n < 0 ? total : n;
  if (t.rank() == 0) return total ? element(t, 0) : "";
  int64_t index = 0;
  std::string out;
  summarize_dim(t, 0, limit, index, out);
  if (t.rank() > 1 && limit < total) out += "...";
  return out;
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

// The input, once its shape fits the expected one (TF's text; TF names the input tensor).
void ensure_shape_kernel(KernelContext& c) {
  const TensorImpl& x = *c.input(0);
  const Shape expected = ensure_shape_attr(c.attrs);
  if (!shape_fits(x.shape(), expected))
    throw_error(Code::kInvalidArgument, "Shape of tensor input ", x.shape().to_list_string(),
                " is not compatible with expected shape ", partial_shape_string(expected), ".");
  c.set_output(0, c.input(0)->with_shape(x.shape()));
}

void timestamp_kernel(KernelContext& c) {
  const auto since_epoch = std::chrono::system_clock::now().time_since_epoch();
  *c.allocate_output(0, DType::kFloat64, Shape())->data<double>() = std::chrono::duration<double>(since_epoch).count();
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
EF_REGISTER_CPU_KERNEL("EnsureShape", ensure_shape_kernel);
EF_REGISTER_CPU_KERNEL("EagerPyFunc", py_func_kernel);
EF_REGISTER_CPU_KERNEL("Timestamp", timestamp_kernel);

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
