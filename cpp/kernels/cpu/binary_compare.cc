// CPU kernels of the comparisons and logical ops of ops/binary_op_table.h (bool output; strings
// compare too), and their predicates for the scalar loop interpreter, from one functor per op.
#include <string>
#include <type_traits>

#include "kernels/cpu/binary_kernel.h"
#include "kernels/cpu/compare_functors.h"
#include "ops/binary_op_table.h"

namespace ef {
namespace {

using namespace binary_kernel;  // NOLINT: the kernels' shared machinery
using namespace compare_functors;  // NOLINT: the comparisons' per-element math

struct LogicalAnd { bool operator()(bool a, bool b) const { return a && b; } };
struct LogicalOr { bool operator()(bool a, bool b) const { return a || b; } };

template <class Cmp, unsigned Types>
void compare_kernel(KernelContext& c) {
  TensorImpl* out = prepare(c, Types, DType::kBool);
  DType t = c.input(0)->dtype();
  if (t == DType::kString) {
    binary_loop<std::string, std::string, bool>(*c.input(0), *c.input(1), *out,
                                                [](const std::string& a, const std::string& b) { return Cmp()(a, b); });
    return;
  }
  EF_DISPATCH_POD(t, EF_UNSUPPORTED(c), {
    if constexpr (std::is_invocable_v<Cmp, T, T>) binary_op_loop<Cmp, T>(*c.input(0), *c.input(1), *out);
  });
}

// LogicalAnd/LogicalOr take bool inputs (no "T" attr): TF reports the input that is not bool.
template <class Op>
void logical_kernel(KernelContext& c) {
  check_same_dtype(c.op, DType::kBool, c.input(0)->dtype(), 0);
  check_same_dtype(c.op, DType::kBool, c.input(1)->dtype(), 1);
  TensorImpl* out = prepare(c, kTypesBool);
  binary_loop<bool, bool, bool>(*c.input(0), *c.input(1), *out, [](bool a, bool b) { return Op()(a, b); });
}

// Scalar steps (the scalar loop interpreter's predicates): the dtypes it runs that the op takes.
template <class F, unsigned Types>
struct PredicateRegistrar {
  explicit PredicateRegistrar(const char* name) {
    add<float>(name);
    add<double>(name);
    add<int32_t>(name);
    add<int64_t>(name);
    add<bool>(name);
  }
  template <class T>
  void add(const char* name) {
    if constexpr ((Types & dtype_bit(DTypeOf<T>::value)) != 0)
      register_scalar_steps(name, 2, DTypeOf<T>::value, {binary_step<F, T, bool>, binary_branch_step<F, T>});
  }
};

#define EF_COMPARE_KERNEL(NAME, TYPES, LIST)                             \
  EF_REGISTER_CPU_KERNEL(#NAME, (compare_kernel<NAME, TYPES>));          \
  static PredicateRegistrar<NAME, TYPES> ef_predicate_##NAME(#NAME);
EF_COMPARE_OPS(EF_COMPARE_KERNEL)
#undef EF_COMPARE_KERNEL
#define EF_LOGICAL_KERNEL(NAME)                               \
  EF_REGISTER_CPU_KERNEL(#NAME, logical_kernel<NAME>);        \
  static PredicateRegistrar<NAME, kTypesBool> ef_predicate_##NAME(#NAME);
EF_LOGICAL_OPS(EF_LOGICAL_KERNEL)
#undef EF_LOGICAL_KERNEL

}  // namespace
}  // namespace ef
