// The scalar loop compiler and interpreter (see scalar_loop.h).
#include "kernels/cpu/scalar_loop.h"

#include <algorithm>
#include <cstring>

#include "kernels/cpu/elementwise_blocks.h"
#include "kernels/cpu/numerics.h"
#include "kernels/cpu/scalar_fused_steps.h"

namespace ef {

namespace {

bool supported(DType t) {
  return t == DType::kFloat32 || t == DType::kFloat64 || t == DType::kInt32 || t == DType::kInt64 ||
         t == DType::kBool;
}

ScalarReg reg_of_tensor(const TensorImpl& t) {
  ScalarReg r;
  std::memset(&r, 0, sizeof r);
  std::memcpy(&r, t.raw_data(), dtype_size(t.dtype()));
  return r;
}

Tensor tensor_of_reg(DType t, const ScalarReg& r) {
  Tensor out = TensorImpl::empty(t, Shape());
  std::memcpy(out->raw_data(), &r, dtype_size(t));
  return out;
}

const ScalarInstr* copy_step(ScalarReg* r, const ScalarInstr* ip) {
  r[ip->out] = r[ip->a];
  return next_step(r, ip);
}

// The loop condition when it is not a fused predicate (a bool loop variable, a constant, a copy).
const ScalarInstr* branch_step(ScalarReg* r, const ScalarInstr* ip) { return r[ip->a].b ? ip + ip->jump : nullptr; }

// One instruction of a function before linking: registers in the function's numbering.
struct Op {
  ScalarStep step, branch;
  int a, b, out;
  FusableInstr fuse;
};

}  // namespace

struct ScalarLoop::Program {
  std::vector<Op> code;
  std::vector<ScalarReg> init;  // registers with constants preloaded; inputs are registers 0..n-1
  std::vector<DType> in_dtypes;
  std::vector<int> outputs;
  std::vector<DType> out_dtypes;
};

ScalarLoop::Builder::Builder() : p_(std::make_shared<Program>()) {}

int ScalarLoop::Builder::input(DType t) {
  if (!supported(t)) return -1;
  p_->init.push_back(ScalarReg{});
  p_->in_dtypes.push_back(t);
  return static_cast<int>(p_->init.size()) - 1;
}

int ScalarLoop::Builder::constant(const TensorImpl& value, DType t) {
  if (!supported(t) || value.dtype() != t || value.num_elements() != 1) return -1;
  p_->init.push_back(reg_of_tensor(value));
  return static_cast<int>(p_->init.size()) - 1;
}

int ScalarLoop::Builder::op(const std::string& op, DType t, DType in_t, const std::vector<int>& args) {
  if (!supported(t) || args.empty() || args.size() > 2) return -1;
  const int out = static_cast<int>(p_->init.size());
  Op ins{nullptr, nullptr, args[0], args.size() > 1 ? args[1] : -1, out, {}};
  if (op == "Identity" && args.size() == 1) {
    if (in_t != t) return -1;
    ins.step = copy_step;
  } else {
    const int id = elementwise_block_id(op);
    const ScalarSteps* s = find_scalar_steps(op, in_t);
    if (!s || !s->value || elementwise_block(id).arity != static_cast<int>(args.size())) return -1;
    // Bool-valued ops (comparisons, logical ops) have a branch variant; the others keep the dtype.
    if (s->branch ? t != DType::kBool : t != in_t) return -1;
    ins.step = s->value;
    ins.branch = s->branch;
    ins.fuse = {scalar_fusable_op(op), in_t, false};
  }
  p_->code.push_back(ins);
  p_->init.push_back(ScalarReg{});
  return out;
}

void ScalarLoop::Builder::output(int reg, DType t) {
  p_->outputs.push_back(reg);
  p_->out_dtypes.push_back(t);
}

namespace {

bool reads(const Op& op, int reg) { return op.a == reg || op.b == reg; }

// The body in an order that lets results be written straight into their loop variable: an
// instruction whose value is only loop variable k's next value goes after the other readers of k.
std::vector<Op> schedule_body(const std::vector<Op>& code, const std::vector<int>& outputs, std::vector<int>& target) {
  const size_t m = code.size();
  target.assign(m, -1);  // the loop variable an instruction may write directly
  for (size_t j = 0; j < m; ++j) {
    const int v = code[j].out;
    int k = -1, uses = 0;
    for (size_t o = 0; o < outputs.size(); ++o)
      if (outputs[o] == v) k = static_cast<int>(o), ++uses;
    if (uses != 1) continue;
    bool consumed = false;
    for (const Op& op : code) consumed |= reads(op, v);
    bool k_kept = false;  // another variable takes k's old value
    for (size_t o = 0; o < outputs.size(); ++o) k_kept |= static_cast<int>(o) != k && outputs[o] == k;
    if (!consumed && !k_kept) target[j] = k;
  }
  std::vector<char> done(m, 0);
  std::vector<Op> order;
  std::vector<int> order_target;
  auto ready = [&](size_t j) {
    for (size_t i = 0; i < m; ++i)
      if (!done[i] && reads(code[j], code[i].out)) return false;
    return true;
  };
  auto clobbers = [&](size_t j) {  // would writing k now destroy a value another instruction reads?
    if (target[j] < 0) return false;
    for (size_t i = 0; i < m; ++i)
      if (i != j && !done[i] && reads(code[i], target[j])) return true;
    return false;
  };
  while (order.size() < m) {
    size_t pick = m;
    for (size_t j = 0; j < m && pick == m; ++j)
      if (!done[j] && ready(j) && !clobbers(j)) pick = j;
    for (size_t j = 0; j < m && pick == m; ++j)
      if (!done[j] && ready(j)) pick = j;
    done[pick] = 1;
    order.push_back(code[pick]);
    order_target.push_back(target[pick]);
  }
  // Keep a direct write only when no later instruction reads the variable's old value.
  for (size_t p = 0; p < m; ++p) {
    const int k = order_target[p];
    if (k < 0) continue;
    for (size_t q = p + 1; q < m; ++q)
      if (reads(order[q], k)) order_target[p] = -1;
  }
  target = std::move(order_target);
  return order;
}

// Superinstructions: a whole loop of 2 or 3 fusable instructions of the counter-and-accumulator
// shape becomes one native loop at its first instruction; otherwise pairs of consecutive ones
// share a step. The covered instructions
// keep their own steps, so the entry point (the cond's first instruction) may fall inside a pair.
void fuse_steps(std::vector<ScalarInstr>& code, const std::vector<FusableInstr>& fuse) {
  if (!fused_steps_enabled()) return;
  const size_t m = code.size();
  if (fuse_whole_loop(code.data(), fuse.data(), static_cast<int>(m))) return;
  for (size_t j = 0; j + 1 < m;) {
    if (ScalarStep s = fused_pair_step(fuse[j], fuse[j + 1])) {
      code[j].step = s;
      j += 2;
    } else {
      ++j;
    }
  }
}

}  // namespace

std::shared_ptr<ScalarLoop> ScalarLoop::make(std::shared_ptr<Program> cond, std::shared_ptr<Program> body) {
  if (!cond || !body) return nullptr;
  const Program& c = *cond;
  const Program& b = *body;
  if (c.outputs.size() != 1 || c.out_dtypes[0] != DType::kBool) return nullptr;
  if (c.in_dtypes != b.in_dtypes || b.out_dtypes != b.in_dtypes) return nullptr;
  const int n = static_cast<int>(c.in_dtypes.size());
  auto loop = std::make_shared<ScalarLoop>();
  loop->in_dtypes_ = c.in_dtypes;
  // One register file: the loop variables, the cond's registers, the body's, move temporaries.
  std::vector<ScalarReg>& regs = loop->init_;
  regs.assign(static_cast<size_t>(n), ScalarReg{});
  const int cond_base = n;
  regs.insert(regs.end(), c.init.begin() + n, c.init.end());
  const int body_base = static_cast<int>(regs.size());
  regs.insert(regs.end(), b.init.begin() + n, b.init.end());
  auto cond_reg = [&](int x) { return x < n ? x : x - n + cond_base; };  // -1 (no operand) stays
  auto body_reg = [&](int x) { return x < n ? x : x - n + body_base; };

  std::vector<Op> bcode = b.code;
  for (Op& op : bcode) op = {op.step, op.branch, body_reg(op.a), body_reg(op.b), body_reg(op.out), op.fuse};
  std::vector<int> src(b.outputs.size());
  for (size_t k = 0; k < src.size(); ++k) src[k] = body_reg(b.outputs[k]);
  std::vector<int> target;
  bcode = schedule_body(bcode, src, target);
  std::vector<ScalarInstr>& code = loop->code_;
  std::vector<FusableInstr> fuse;  // per instruction of `code`
  for (size_t j = 0; j < bcode.size(); ++j) {
    const Op& op = bcode[j];
    int out = op.out;
    if (target[j] >= 0) {
      for (int& s : src)
        if (s == out) s = target[j];
      out = target[j];
    }
    code.push_back({op.step, op.a, op.b, out, 0});
    fuse.push_back(op.fuse);
  }
  // Next values that are other variables' old values go through temporaries first.
  for (int k = 0; k < n; ++k) {
    if (src[k] < n && src[k] != k) {
      const int t = static_cast<int>(regs.size());
      regs.push_back(ScalarReg{});
      code.push_back({copy_step, src[k], 0, t, 0});
      fuse.emplace_back();
      src[k] = t;
    }
  }
  for (int k = 0; k < n; ++k)
    if (src[k] != k) {
      code.push_back({copy_step, src[k], 0, k, 0});
      fuse.emplace_back();
    }

  loop->entry_ = static_cast<int>(code.size());
  for (const Op& op : c.code) {
    code.push_back({op.step, cond_reg(op.a), cond_reg(op.b), cond_reg(op.out), 0});
    fuse.push_back(op.fuse);
  }
  const int pred = cond_reg(c.outputs[0]);
  if (!c.code.empty() && c.code.back().branch && code.back().out == pred) {
    code.back().step = c.code.back().branch;
    fuse.back().branch = true;
  } else {
    code.push_back({branch_step, pred, 0, 0, 0});
    fuse.emplace_back();
  }
  loop->abort_ = static_cast<int>(regs.size());
  regs.push_back(ScalarReg{});
  for (ScalarInstr& ins : code) ins.jump = loop->abort_;
  code.back().jump = -static_cast<int32_t>(code.size() - 1);  // back to the body's first instruction
  if (code.size() > static_cast<size_t>(kMaxScalarProgram)) return nullptr;
  fuse_steps(code, fuse);
  return loop;
}

bool ScalarLoop::run(const std::vector<Tensor>& vars, std::vector<Tensor>& out) const {
  const size_t n = vars.size();
  if (n != in_dtypes_.size() || check_numerics_enabled()) return false;
  std::vector<ScalarReg> r(init_);
  for (size_t k = 0; k < n; ++k) {
    const TensorImpl& t = *vars[k];
    if (t.dtype() != in_dtypes_[k] || t.rank() != 0) return false;
    r[k] = reg_of_tensor(t);
  }
  ScalarReg* regs = r.data();
  const ScalarInstr* ip = code_.data() + entry_;
  do {
    ip = ip->step(regs, ip);
  } while (ip);
  if (r[abort_].b) return false;  // a step refused its operands: the plans raise the kernel's error
  out.clear();
  for (size_t k = 0; k < n; ++k) out.push_back(tensor_of_reg(in_dtypes_[k], r[k]));
  return true;
}

}  // namespace ef
