// The scalar loop compiler and interpreter (see scalar_loop.h).
#include "kernels/cpu/scalar_loop.h"

#include <cstring>

#include "kernels/cpu/elementwise_blocks.h"
#include "kernels/cpu/numerics.h"

namespace ef {

namespace {

union Reg {
  float f32;
  double f64;
  int32_t i32;
  int64_t i64;
  bool b;
};

bool supported(DType t) {
  return t == DType::kFloat32 || t == DType::kFloat64 || t == DType::kInt32 || t == DType::kInt64 ||
         t == DType::kBool;
}

Reg reg_of_tensor(const TensorImpl& t) {
  Reg r;
  std::memset(&r, 0, sizeof r);
  std::memcpy(&r, t.raw_data(), dtype_size(t.dtype()));
  return r;
}

Tensor tensor_of_reg(DType t, const Reg& r) {
  Tensor out = TensorImpl::empty(t, Shape());
  std::memcpy(out->raw_data(), &r, dtype_size(t));
  return out;
}

enum Kind : uint8_t { kCopy, kUnary, kBinary, kPredicate };
using AnyFn = void (*)();

struct Instr {
  Kind kind;
  DType t;
  AnyFn fn;
  int a, b, out;
};

}  // namespace

struct ScalarLoop::Program {
  std::vector<Instr> code;
  std::vector<Reg> init;  // registers with constants preloaded; inputs are registers 0..n-1
  std::vector<DType> in_dtypes;
  std::vector<int> outputs;
  std::vector<DType> out_dtypes;

  template <class Fns>
  static AnyFn pick(const Fns& fns, Kind k) {
    return k == kUnary ? reinterpret_cast<AnyFn>(fns.unary) : reinterpret_cast<AnyFn>(fns.binary);
  }

  template <class T>
  static T* at(Reg* r, int i) {
    return reinterpret_cast<T*>(&r[i]);
  }

  template <class T>
  static void call(const Instr& in, Reg* r) {
    if (in.kind == kUnary) {
      reinterpret_cast<UnaryBlockFn<T>>(in.fn)(at<T>(r, in.a), at<T>(r, in.out), 1);
    } else {
      reinterpret_cast<BinaryBlockFn<T>>(in.fn)(at<T>(r, in.a), at<T>(r, in.b), at<T>(r, in.out), 1);
    }
  }

  void exec(Reg* r) const {
    for (const Instr& in : code) {
      switch (in.kind) {
        case kCopy: r[in.out] = r[in.a]; break;
        case kPredicate: r[in.out].b = reinterpret_cast<PredicateFn>(in.fn)(&r[in.a], &r[in.b]); break;
        default:
          switch (in.t) {
            case DType::kFloat32: call<float>(in, r); break;
            case DType::kFloat64: call<double>(in, r); break;
            case DType::kInt32: call<int32_t>(in, r); break;
            default: call<int64_t>(in, r); break;
          }
      }
    }
  }
};

ScalarLoop::Builder::Builder() : p_(std::make_shared<Program>()) {}

int ScalarLoop::Builder::input(DType t) {
  if (!supported(t)) return -1;
  p_->init.push_back(Reg{});
  p_->in_dtypes.push_back(t);
  return static_cast<int>(p_->init.size()) - 1;
}

int ScalarLoop::Builder::constant(const TensorImpl& value, DType t) {
  if (!supported(t) || value.dtype() != t || value.num_elements() != 1) return -1;
  p_->init.push_back(reg_of_tensor(value));
  return static_cast<int>(p_->init.size()) - 1;
}

int ScalarLoop::Builder::op(const std::string& op, DType t, DType in_t, const std::vector<int>& args) {
  if (!supported(t)) return -1;
  const int out = static_cast<int>(p_->init.size());
  Instr ins{kCopy, in_t, nullptr, args.empty() ? 0 : args[0], args.size() > 1 ? args[1] : 0, out};
  if (op == "Identity" && args.size() == 1) {
    ins.kind = kCopy;
  } else if (PredicateFn pf = t == DType::kBool ? find_predicate(op, in_t) : nullptr; pf && !args.empty()) {
    ins.kind = kPredicate;
    ins.fn = reinterpret_cast<AnyFn>(pf);
  } else if (in_t == t && block_dtype_supported(t) && has_elementwise_block(op, t) &&
             (args.size() == 1 || args.size() == 2)) {
    const ElementwiseBlock& e = elementwise_block(elementwise_block_id(op));
    if (e.arity != static_cast<int>(args.size())) return -1;
    ins.kind = args.size() == 1 ? kUnary : kBinary;
    switch (t) {
      case DType::kFloat32: ins.fn = Program::pick(e.f32, ins.kind); break;
      case DType::kFloat64: ins.fn = Program::pick(e.f64, ins.kind); break;
      case DType::kInt32: ins.fn = Program::pick(e.i32, ins.kind); break;
      case DType::kInt64: ins.fn = Program::pick(e.i64, ins.kind); break;
      default: return -1;
    }
    if (!ins.fn) return -1;
  } else {
    return -1;
  }
  p_->code.push_back(ins);
  p_->init.push_back(Reg{});
  return out;
}

void ScalarLoop::Builder::output(int reg, DType t) {
  p_->outputs.push_back(reg);
  p_->out_dtypes.push_back(t);
}

std::shared_ptr<ScalarLoop> ScalarLoop::make(std::shared_ptr<Program> cond, std::shared_ptr<Program> body) {
  if (!cond || !body) return nullptr;
  auto loop = std::make_shared<ScalarLoop>();
  loop->cond_ = std::move(cond);
  loop->body_ = std::move(body);
  const Program& c = *loop->cond_;
  const Program& b = *loop->body_;
  if (c.outputs.size() != 1 || c.out_dtypes[0] != DType::kBool) return nullptr;
  if (c.in_dtypes != b.in_dtypes || b.out_dtypes != b.in_dtypes) return nullptr;
  return loop;
}

bool ScalarLoop::run(const std::vector<Tensor>& vars, std::vector<Tensor>& out) const {
  const Program& c = *cond_;
  const Program& b = *body_;
  const size_t n = vars.size();
  if (n != c.in_dtypes.size() || check_numerics_enabled()) return false;
  std::vector<Reg> v(n), cr(c.init), br(b.init);
  for (size_t k = 0; k < n; ++k) {
    const TensorImpl& t = *vars[k];
    if (t.dtype() != c.in_dtypes[k] || t.rank() != 0) return false;
    v[k] = reg_of_tensor(t);
  }
  const int pred = c.outputs[0];
  for (;;) {
    std::copy(v.begin(), v.end(), cr.begin());
    c.exec(cr.data());
    if (!cr[pred].b) break;
    std::copy(v.begin(), v.end(), br.begin());
    b.exec(br.data());
    for (size_t k = 0; k < n; ++k) v[k] = br[b.outputs[k]];
  }
  out.clear();
  for (size_t k = 0; k < n; ++k) out.push_back(tensor_of_reg(c.in_dtypes[k], v[k]));
  return true;
}

}  // namespace ef
