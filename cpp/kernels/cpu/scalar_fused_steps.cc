// The scalar loop's fused steps (see scalar_fused_steps.h), instantiated from the kernels' functors
// for every combination of the fusable ops and dtypes, and looked up in tables built at compile time.
#include "kernels/cpu/scalar_fused_steps.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <tuple>
#include <utility>

#include "kernels/cpu/binary_functors.h"
#include "kernels/cpu/compare_functors.h"

namespace ef {
namespace {

// Values (ids 0..kValues-1), then predicates.
using Values = std::tuple<binary_functors::AddV2, binary_functors::Sub, binary_functors::Mul>;
using Predicates = std::tuple<compare_functors::Less, compare_functors::LessEqual, compare_functors::Greater,
                              compare_functors::GreaterEqual, compare_functors::Equal, compare_functors::NotEqual>;
using Types = std::tuple<float, double, int32_t, int64_t>;
constexpr int kValues = std::tuple_size_v<Values>;
constexpr int kPredicates = std::tuple_size_v<Predicates>;
constexpr int kTypes = std::tuple_size_v<Types>;
const char* const kNames[kValues + kPredicates] = {"AddV2",   "Sub",          "Mul",   "Less",    "LessEqual",
                                                    "Greater", "GreaterEqual", "Equal", "NotEqual"};

template <int I>
using V = std::tuple_element_t<I, Values>;
template <int I>
using P = std::tuple_element_t<I, Predicates>;
template <int I>
using T = std::tuple_element_t<I, Types>;

int type_index(DType t) {
  switch (t) {
    case DType::kFloat32: return 0;
    case DType::kFloat64: return 1;
    case DType::kInt32: return 2;
    case DType::kInt64: return 3;
    default: return -1;
  }
}

template <class F, class S>
inline void value(ScalarReg* r, const ScalarInstr& i) {
  reg_as<S>(r[i.out]) = F()(reg_as<S>(r[i.a]), reg_as<S>(r[i.b]));
}
template <class F, class S>
inline bool holds(ScalarReg* r, const ScalarInstr& i) {
  return F()(reg_as<S>(r[i.a]), reg_as<S>(r[i.b]));
}

template <class F1, class S1, class F2, class S2>
const ScalarInstr* pair_step(ScalarReg* r, const ScalarInstr* ip) {
  value<F1, S1>(r, ip[0]);
  value<F2, S2>(r, ip[1]);
  return next_step(r, ip + 1);
}
template <class F, class B, class S>
const ScalarInstr* value_branch_step(ScalarReg* r, const ScalarInstr* ip) {
  value<F, S>(r, ip[0]);
  return holds<B, S>(r, ip[1]) ? ip + 1 + ip[1].jump : nullptr;
}
// Whole loops, their two (or one) loop-carried values in machine registers: i0 updates v0 (its
// output register) from v0 and x0, i1 updates v1 from v1 and x1, the branch tests y against an
// invariant. The fuser (fuse_whole_loop) matched that shape, put an AddV2/Mul operand order that
// has the value second first (they commute), mirrored a predicate whose value is its second
// operand, and set flags in i0.jump (unused by these steps): bit 0, x0 is v1 (else an invariant
// register); bit 1, x1 is v0 (the value i0 just computed); bit 2, y is v1 (else v0). The flags are
// loop-invariant, so the compiler unswitches them into one tight loop each.
inline int invariant_operand(const ScalarInstr& i, int own) { return i.a == own ? i.b : i.a; }
template <class F, class B, class S>
const ScalarInstr* loop2_step(ScalarReg* r, const ScalarInstr* ip) {
  const ScalarInstr &i0 = ip[0], &i1 = ip[1];
  const int o0 = i0.out;
  const S k0 = reg_as<S>(r[invariant_operand(i0, o0)]), kb = reg_as<S>(r[invariant_operand(i1, o0)]);
  S v0 = reg_as<S>(r[o0]);
  do v0 = F()(v0, k0);
  while (B()(v0, kb));
  reg_as<S>(r[o0]) = v0;
  return nullptr;
}
template <class F0, class F1, class B, class S>
const ScalarInstr* loop3_step(ScalarReg* r, const ScalarInstr* ip) {
  const ScalarInstr &i0 = ip[0], &i1 = ip[1], &i2 = ip[2];
  const int o0 = i0.out, o1 = i1.out;
  const bool x0_is_v1 = i0.jump & 1, x1_is_v0 = i0.jump & 2, y_is_v1 = i0.jump & 4;
  const S k0 = reg_as<S>(r[invariant_operand(i0, o0)]), k1 = reg_as<S>(r[invariant_operand(i1, o1)]);
  const S kb = reg_as<S>(r[invariant_operand(i2, y_is_v1 ? o1 : o0)]);
  S v0 = reg_as<S>(r[o0]), v1 = reg_as<S>(r[o1]);
  do {
    v0 = F0()(v0, x0_is_v1 ? v1 : k0);
    v1 = F1()(v1, x1_is_v0 ? v0 : k1);
  } while (B()(y_is_v1 ? v1 : v0, kb));
  reg_as<S>(r[o0]) = v0;
  reg_as<S>(r[o1]) = v1;
  return nullptr;
}

// Tables indexed by (op ids, type indices), row-major in the order of the template arguments.
template <size_t... K>
constexpr auto pair_table(std::index_sequence<K...>) {
  constexpr int t = kTypes, v = kValues;
  return std::array<ScalarStep, sizeof...(K)>{
      &pair_step<V<K / (t * v * t)>, T<K / (v * t) % t>, V<K / t % v>, T<K % t>>...};
}
template <size_t... K>
constexpr auto value_branch_table(std::index_sequence<K...>) {
  constexpr int t = kTypes, p = kPredicates;
  return std::array<ScalarStep, sizeof...(K)>{&value_branch_step<V<K / (p * t)>, P<K / t % p>, T<K % t>>...};
}
template <size_t... K>
constexpr auto loop2_table(std::index_sequence<K...>) {
  constexpr int t = kTypes, p = kPredicates;
  return std::array<ScalarStep, sizeof...(K)>{&loop2_step<V<K / (p * t)>, P<K / t % p>, T<K % t>>...};
}
template <size_t... K>
constexpr auto loop3_table(std::index_sequence<K...>) {
  constexpr int t = kTypes, p = kPredicates, v = kValues;
  return std::array<ScalarStep, sizeof...(K)>{
      &loop3_step<V<K / (v * p * t)>, V<K / (p * t) % v>, P<K / t % p>, T<K % t>>...};
}

const auto kPairs = pair_table(std::make_index_sequence<kValues * kTypes * kValues * kTypes>());
const auto kValueBranches = value_branch_table(std::make_index_sequence<kValues * kPredicates * kTypes>());
const auto kLoop2 = loop2_table(std::make_index_sequence<kValues * kPredicates * kTypes>());
const auto kLoop3 = loop3_table(std::make_index_sequence<kValues * kValues * kPredicates * kTypes>());

std::atomic<bool> g_enabled{true};

bool is_value(const FusableInstr& x) { return x.op >= 0 && x.op < kValues && !x.branch && type_index(x.t) >= 0; }
bool is_branch(const FusableInstr& x) { return x.op >= kValues && x.branch && type_index(x.t) >= 0; }

constexpr int kMirror[kPredicates] = {2, 3, 0, 1, 4, 5};  // a P b == b mirror(P) a
bool commutes(int op) { return op == 0 || op == 2; }      // AddV2, Mul

// The operand of value instruction `i` other than its own output (the loop-carried value), with
// `i` read as F(own, other); -1 when the instruction does not have that shape.
int other_operand(const ScalarInstr& i, const FusableInstr& f) {
  if (i.a == i.out && i.b != i.out) return i.b;
  if (i.b == i.out && i.a != i.out && commutes(f.op)) return i.a;
  return -1;
}

}  // namespace

int scalar_fusable_op(const std::string& op) {
  for (int i = 0; i < kValues + kPredicates; ++i)
    if (op == kNames[i]) return i;
  return -1;
}

ScalarStep fused_pair_step(const FusableInstr& x, const FusableInstr& y) {
  if (!is_value(x)) return nullptr;
  const int tx = type_index(x.t), ty = type_index(y.t);
  if (is_value(y)) return kPairs[((x.op * kTypes + tx) * kValues + y.op) * kTypes + ty];
  if (is_branch(y) && tx == ty) return kValueBranches[(x.op * kPredicates + y.op - kValues) * kTypes + tx];
  return nullptr;
}

bool fuse_whole_loop(ScalarInstr* code, const FusableInstr* fuse, int n) {
  if (n < 2 || n > 3 || !is_branch(fuse[n - 1])) return false;
  const int t = type_index(fuse[n - 1].t);
  for (int j = 0; j + 1 < n; ++j)
    if (!is_value(fuse[j]) || fuse[j].t != fuse[n - 1].t) return false;
  const int o0 = code[0].out, o1 = n == 3 ? code[1].out : -1;
  if (o0 == o1) return false;
  auto carried = [&](int reg) { return reg == o0 || reg == o1; };
  // The branch as y P' k: y a loop-carried value, k an invariant.
  const ScalarInstr& br = code[n - 1];
  int b = fuse[n - 1].op - kValues, y;
  if (carried(br.a) && !carried(br.b)) {
    y = br.a;
  } else if (carried(br.b) && !carried(br.a)) {
    y = br.b;
    b = kMirror[b];
  } else {
    return false;
  }
  const int x0 = other_operand(code[0], fuse[0]);
  if (x0 < 0) return false;
  if (n == 2) {
    if (carried(x0)) return false;
    code[0].step = kLoop2[(fuse[0].op * kPredicates + b) * kTypes + t];
    return true;
  }
  const int x1 = other_operand(code[1], fuse[1]);
  if (x1 < 0 || x0 == o0 || x1 == o1) return false;
  code[0].jump = (x0 == o1 ? 1 : 0) | (x1 == o0 ? 2 : 0) | (y == o1 ? 4 : 0);
  code[0].step = kLoop3[((fuse[0].op * kValues + fuse[1].op) * kPredicates + b) * kTypes + t];
  return true;
}

bool fused_steps_enabled() { return g_enabled.load(std::memory_order_relaxed); }
void set_fused_steps_enabled(bool on) { g_enabled.store(on, std::memory_order_relaxed); }

}  // namespace ef
