// CPU kernels of the comparisons (bool output; strings compare too) and LogicalAnd/LogicalOr, and
// their predicates for the scalar loop interpreter.
#include <string>
#include <type_traits>

#include "kernels/cpu/binary_kernel.h"
#include "kernels/cpu/predicate_blocks.h"

namespace ef {
namespace {

using namespace binary_kernel;  // NOLINT: the kernels' shared machinery

template <typename Cmp>
void compare_kernel(KernelContext& c, unsigned types, Cmp cmp) {
  TensorImpl* out = prepare(c, types, DType::kBool);
  DType t = c.input(0)->dtype();
  if (t == DType::kString) {
    binary_loop<std::string, std::string, bool>(*c.input(0), *c.input(1), *out,
                                                [&](const std::string& a, const std::string& b) { return cmp(a, b); });
    return;
  }
  EF_DISPATCH_POD(t, EF_UNSUPPORTED(c), {
    if constexpr (std::is_same_v<T, complex64>) {
      if constexpr (std::is_invocable_v<Cmp, complex64, complex64>)
        binary_loop<T, T, bool>(*c.input(0), *c.input(1), *out, [&](T a, T b) { return cmp(a, b); });
    } else {
      binary_loop<T, T, bool>(*c.input(0), *c.input(1), *out, [&](T a, T b) { return cmp(a, b); });
    }
  });
}

struct Lt { template <class T> bool operator()(const T& a, const T& b) const { return a < b; } };
struct Le { template <class T> bool operator()(const T& a, const T& b) const { return a <= b; } };
struct Gt { template <class T> bool operator()(const T& a, const T& b) const { return a > b; } };
struct Ge { template <class T> bool operator()(const T& a, const T& b) const { return a >= b; } };
struct Eq { template <class T> bool operator()(const T& a, const T& b) const { return a == b; } };
struct Ne { template <class T> bool operator()(const T& a, const T& b) const { return a != b; } };

// Ordering comparisons are not defined for complex numbers.
template <class F>
struct RealOnly {
  template <class T, class = std::enable_if_t<!std::is_same_v<T, complex64>>>
  bool operator()(const T& a, const T& b) const { return F()(a, b); }
};

void less_kernel(KernelContext& c) { compare_kernel(c, kTypesReal, RealOnly<Lt>()); }
void less_equal_kernel(KernelContext& c) { compare_kernel(c, kTypesReal, RealOnly<Le>()); }
void greater_kernel(KernelContext& c) { compare_kernel(c, kTypesReal, RealOnly<Gt>()); }
void greater_equal_kernel(KernelContext& c) { compare_kernel(c, kTypesReal, RealOnly<Ge>()); }
void equal_kernel(KernelContext& c) { compare_kernel(c, kTypesAll, Eq()); }
void not_equal_kernel(KernelContext& c) { compare_kernel(c, kTypesAll, Ne()); }

// LogicalAnd/LogicalOr take bool inputs (no "T" attr): TF reports the input that is not bool.
TensorImpl* prepare_logical(KernelContext& c) {
  check_same_dtype(c.op, DType::kBool, c.input(0)->dtype(), 0);
  check_same_dtype(c.op, DType::kBool, c.input(1)->dtype(), 1);
  return prepare(c, kTypesBool);
}

void logical_and_kernel(KernelContext& c) {
  TensorImpl* out = prepare_logical(c);
  binary_loop<bool, bool, bool>(*c.input(0), *c.input(1), *out, [](bool a, bool b) { return a && b; });
}
void logical_or_kernel(KernelContext& c) {
  TensorImpl* out = prepare_logical(c);
  binary_loop<bool, bool, bool>(*c.input(0), *c.input(1), *out, [](bool a, bool b) { return a || b; });
}

EF_REGISTER_CPU_KERNEL("LogicalAnd", logical_and_kernel);
EF_REGISTER_CPU_KERNEL("LogicalOr", logical_or_kernel);
EF_REGISTER_CPU_KERNEL("Less", less_kernel);
EF_REGISTER_CPU_KERNEL("LessEqual", less_equal_kernel);
EF_REGISTER_CPU_KERNEL("Greater", greater_kernel);
EF_REGISTER_CPU_KERNEL("GreaterEqual", greater_equal_kernel);
EF_REGISTER_CPU_KERNEL("Equal", equal_kernel);
EF_REGISTER_CPU_KERNEL("NotEqual", not_equal_kernel);

// ---- predicates for the scalar loop interpreter (kernels/cpu/scalar_loop.cc) ----

template <class F, class T>
bool predicate(const void* a, const void* b) {
  return F()(*static_cast<const T*>(a), *static_cast<const T*>(b));
}

template <class F>
struct PredicateRegistrar {
  explicit PredicateRegistrar(const char* name) {
    register_predicate(name, DType::kFloat32, predicate<F, float>);
    register_predicate(name, DType::kFloat64, predicate<F, double>);
    register_predicate(name, DType::kInt32, predicate<F, int32_t>);
    register_predicate(name, DType::kInt64, predicate<F, int64_t>);
  }
};
static PredicateRegistrar<Lt> ef_pred_lt("Less");
static PredicateRegistrar<Le> ef_pred_le("LessEqual");
static PredicateRegistrar<Gt> ef_pred_gt("Greater");
static PredicateRegistrar<Ge> ef_pred_ge("GreaterEqual");
static PredicateRegistrar<Eq> ef_pred_eq("Equal");
static PredicateRegistrar<Ne> ef_pred_ne("NotEqual");
struct And { bool operator()(bool a, bool b) const { return a && b; } };
struct Or { bool operator()(bool a, bool b) const { return a || b; } };
struct LogicalPredicates {
  LogicalPredicates() {
    register_predicate("LogicalAnd", DType::kBool, predicate<And, bool>);
    register_predicate("LogicalOr", DType::kBool, predicate<Or, bool>);
    register_predicate("Equal", DType::kBool, predicate<Eq, bool>);
    register_predicate("NotEqual", DType::kBool, predicate<Ne, bool>);
  }
};
static LogicalPredicates ef_logical_predicates;

}  // namespace
}  // namespace ef
