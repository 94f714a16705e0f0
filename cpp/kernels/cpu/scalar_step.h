// The instructions of the scalar loop interpreter (scalar_loop.h): one step function per op and
// dtype, instantiated by the kernel files from their own per-element functors, so a step inlines
// the op's math (no call per op, no loop over one element) and returns the next instruction.
#pragma once
#include <cstdint>

namespace ef {

// One register: a scalar of any dtype the interpreter runs.
union ScalarReg {
  float f32;
  double f64;
  int32_t i32;
  int64_t i64;
  bool b;
};

template <class T>
inline T& reg_as(ScalarReg& r);
template <>
inline float& reg_as<float>(ScalarReg& r) { return r.f32; }
template <>
inline double& reg_as<double>(ScalarReg& r) { return r.f64; }
template <>
inline int32_t& reg_as<int32_t>(ScalarReg& r) { return r.i32; }
template <>
inline int64_t& reg_as<int64_t>(ScalarReg& r) { return r.i64; }
template <>
inline bool& reg_as<bool>(ScalarReg& r) { return r.b; }

struct ScalarInstr;
// Runs *ip on registers `r` and the instructions after it up to the loop's branch, which returns
// where the loop goes on (null: it ends). Steps chain by tail calls (threaded code: no return to a
// dispatch loop per op); the depth is bounded by the program's length where a build does not
// turn them into jumps, and the interpreter refuses programs longer than kMaxScalarProgram.
using ScalarStep = const ScalarInstr* (*)(ScalarReg* r, const ScalarInstr* ip);
constexpr int kMaxScalarProgram = 2048;

struct ScalarInstr {
  ScalarStep step;
  int32_t a, b, out;  // registers (b unused by unary steps)
  int32_t jump;       // branches: the offset of the instruction taken when the predicate holds;
                      // other steps: the abort flag's register
};

inline const ScalarInstr* next_step(ScalarReg* r, const ScalarInstr* ip);

// out = F(a) or F(a, b), with T the registers' type (also bool-valued ops: Out = bool).
template <class F, class T, class Out = T>
const ScalarInstr* unary_step(ScalarReg* r, const ScalarInstr* ip) {
  reg_as<Out>(r[ip->out]) = F()(reg_as<T>(r[ip->a]));
  return next_step(r, ip);
}
template <class F, class T, class Out = T>
const ScalarInstr* binary_step(ScalarReg* r, const ScalarInstr* ip) {
  reg_as<Out>(r[ip->out]) = F()(reg_as<T>(r[ip->a]), reg_as<T>(r[ip->b]));
  return next_step(r, ip);
}
// out = F(a, b) for the integer division ops, which refuse a zero divisor: then the step sets the
// bool register `jump` (the program's abort flag) and ends the loop; the interpreter gives up and
// the loop runs its plans from the start, which raise the kernel's error (the loop is stateless,
// so running it again is unobservable).
template <class F, class T>
const ScalarInstr* binary_divisor_step(ScalarReg* r, const ScalarInstr* ip) {
  const T b = reg_as<T>(r[ip->b]);
  if (b == T(0)) {
    r[ip->jump].b = true;
    return nullptr;
  }
  reg_as<T>(r[ip->out]) = F()(reg_as<T>(r[ip->a]), b);
  return next_step(r, ip);
}

// A loop condition fused with its predicate: jumps when F holds, ends the loop otherwise.
template <class F, class T>
const ScalarInstr* unary_branch_step(ScalarReg* r, const ScalarInstr* ip) {
  return F()(reg_as<T>(r[ip->a])) ? ip + ip->jump : nullptr;
}
template <class F, class T>
const ScalarInstr* binary_branch_step(ScalarReg* r, const ScalarInstr* ip) {
  return F()(reg_as<T>(r[ip->a]), reg_as<T>(r[ip->b])) ? ip + ip->jump : nullptr;
}

inline const ScalarInstr* next_step(ScalarReg* r, const ScalarInstr* ip) {
  ++ip;
  return ip->step(r, ip);
}

// A step function of an op for one input dtype, and for bool-valued ops the branch variant.
struct ScalarSteps {
  ScalarStep value = nullptr;
  ScalarStep branch = nullptr;
};

}  // namespace ef
