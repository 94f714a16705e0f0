// CPU kernel of _FusedElementwise: runs a chain of elementwise ops block by block (kBlock
// elements at a time, intermediates in a few cache-resident scratch blocks), so the whole chain
// is one pass over memory. Each step calls the op's block function (elementwise_blocks.h): the
// same arithmetic as the unfused kernels, in the same order.
#include <algorithm>
#include <new>
#include <vector>

#include "core/errors.h"
#include "kernels/cpu/broadcast.h"
#include "kernels/cpu/elementwise_blocks.h"
#include "ops/op_util.h"

namespace ef {
namespace {

// A multiple of every SIMD width, so blocks split vector loops where whole-tensor loops do.
constexpr int64_t kBlock = 512;

// Where a value lives during one block.
struct Loc {
  enum Kind { kInput, kScalar, kOutput, kScratch } kind;
  int index;  // input / scalar buffer / output / scratch register number
};

struct Step {
  const ElementwiseBlock* op;
  int a, b, dst;  // value numbers (b = -1 for unary ops)
};

// The program compiled for one call: steps, value locations, scratch sizes.
struct Compiled {
  std::vector<Step> steps;
  std::vector<Loc> locs;
  int num_scratch = 0;
  int num_scalars = 0;
  size_t num_outputs = 0;
  Shape shape;  // the (fully known) shape of every full-size operand and of the outputs
};

Compiled compile(const KernelContext& c, const Shape& shape) {
  Compiled p;
  p.shape = shape;
  const int k = static_cast<int>(c.num_inputs());
  const std::vector<int64_t> prog = c.attrs.get<std::vector<int64_t>>("program");
  const std::vector<int64_t> outs = c.attrs.get<std::vector<int64_t>>("outputs");
  EF_INVALID(prog.size() % 3 == 0, "_FusedElementwise: malformed program");
  const int m = static_cast<int>(prog.size() / 3);
  p.num_outputs = outs.size();
  const int nv = k + m;
  p.locs.resize(nv);
  for (int i = 0; i < k; ++i) {
    const TensorImpl& x = *c.input(i);
    if (x.shape() == shape) {
      p.locs[i] = {Loc::kInput, i};
    } else {
      EF_INVALID(x.num_elements() == 1, "_FusedElementwise: input ", i, " has shape ", x.shape().to_string(),
                 ", expected ", shape.to_string(), " or one element");
      p.locs[i] = {Loc::kScalar, p.num_scalars++};
    }
  }
  std::vector<int> out_of(nv, -1), last_use(nv, -1);
  for (size_t o = 0; o < outs.size(); ++o) {
    EF_INVALID(outs[o] >= k && outs[o] < nv, "_FusedElementwise: bad output ", outs[o]);
    out_of[outs[o]] = static_cast<int>(o);
  }
  for (int j = 0; j < m; ++j) {
    const int64_t id = prog[3 * j], a = prog[3 * j + 1], b = prog[3 * j + 2];
    const ElementwiseBlock& op = elementwise_block(static_cast<int>(id));
    EF_INVALID(a >= 0 && a < k + j && b < k + j && (op.arity == 2) == (b >= 0), "_FusedElementwise: bad step ", j);
    p.steps.push_back({&op, static_cast<int>(a), static_cast<int>(b), k + j});
    last_use[a] = j;
    if (b >= 0) last_use[b] = j;
  }
  // Scratch registers: a step's result takes a free register (never one of its own operands,
  // since block functions may not alias), and operands free theirs after their last use.
  std::vector<int> free_regs;
  for (int j = 0; j < m; ++j) {
    const int v = k + j;
    if (out_of[v] >= 0) {
      p.locs[v] = {Loc::kOutput, out_of[v]};
    } else {
      int r;
      if (free_regs.empty()) {
        r = p.num_scratch++;
      } else {
        r = free_regs.back();
        free_regs.pop_back();
      }
      p.locs[v] = {Loc::kScratch, r};
    }
    const Step& s = p.steps[j];
    for (int operand : {s.a, s.b}) {
      if (operand >= k && last_use[operand] == j && p.locs[operand].kind == Loc::kScratch) {
        free_regs.push_back(p.locs[operand].index);
        last_use[operand] = -1;  // x * x frees once
      }
    }
    if (last_use[v] < 0 && p.locs[v].kind == Loc::kScratch) free_regs.push_back(p.locs[v].index);  // unused
  }
  return p;
}

// Per-thread scratch, 64-byte aligned, grown on demand and reused across calls.
template <class T>
T* thread_scratch(int64_t n) {
  struct Block {
    void* p = nullptr;
    size_t bytes = 0;
    ~Block() { ::operator delete(p, std::align_val_t(64)); }
  };
  thread_local Block b;
  const size_t want = static_cast<size_t>(std::max<int64_t>(n, 1)) * sizeof(T);
  if (b.bytes < want) {
    ::operator delete(b.p, std::align_val_t(64));
    b.p = ::operator new(want, std::align_val_t(64));
    b.bytes = want;
  }
  return static_cast<T*>(b.p);
}

template <class T>
void run_typed(KernelContext& c, const Compiled& p, const Shape& shape) {
  const int64_t n = shape.num_elements();
  const int k = static_cast<int>(c.num_inputs());
  std::vector<const T*> in(k);
  for (int i = 0; i < k; ++i) in[i] = c.input(i)->template data<T>();
  std::vector<T*> out;
  const size_t num_out = p.num_outputs;
  // Never a forwarded input: the program stores an output before it has read every input.
  for (size_t o = 0; o < num_out; ++o)
    out.push_back(c.allocate_output(o, DTypeOf<T>::value, shape, /*forward=*/false)->template data<T>());
  // Every step must have a block function for T (the pass only fuses those).
  for (const Step& s : p.steps) {
    const BlockFns<T>& f = block_fns<T>(*s.op);
    EF_INVALID(s.b < 0 ? f.unary != nullptr : f.binary != nullptr, "_FusedElementwise: ", s.op->op, " has no ",
               dtype_name(DTypeOf<T>::value), " block function");
  }
  if (n == 0) return;
  const size_t nv = p.locs.size();

  auto run_range = [&](int64_t b0, int64_t b1) {
    // Scalars are broadcast into full blocks once; then every step is a same-shape block op.
    // Scratch memory is per thread and kept between calls (small graphs call this often).
    const int64_t fill = std::min<int64_t>(kBlock, n);
    T* scratch = thread_scratch<T>((p.num_scratch + p.num_scalars) * kBlock);
    T* scalars = scratch + p.num_scratch * kBlock;
    for (int i = 0; i < k; ++i)
      if (p.locs[i].kind == Loc::kScalar) std::fill_n(scalars + p.locs[i].index * kBlock, fill, in[i][0]);
    thread_local std::vector<void*> ptr_storage;
    ptr_storage.resize(nv);
    T** ptr = reinterpret_cast<T**>(ptr_storage.data());
    for (int64_t blk = b0; blk < b1; ++blk) {
      const int64_t start = blk * kBlock, len = std::min(kBlock, n - start);
      for (size_t v = 0; v < nv; ++v) {
        const Loc& l = p.locs[v];
        switch (l.kind) {
          case Loc::kInput: ptr[v] = const_cast<T*>(in[l.index]) + start; break;
          case Loc::kScalar: ptr[v] = scalars + l.index * kBlock; break;
          case Loc::kOutput: ptr[v] = out[l.index] + start; break;
          case Loc::kScratch: ptr[v] = scratch + l.index * kBlock; break;
        }
      }
      for (const Step& s : p.steps) {
        const BlockFns<T>& f = block_fns<T>(*s.op);
        if (s.b < 0) {
          f.unary(ptr[s.a], ptr[s.dst], len);
        } else {
          f.binary(ptr[s.a], ptr[s.b], ptr[s.dst], len);
        }
      }
    }
  };

  const int64_t blocks = (n + kBlock - 1) / kBlock;
  const int64_t steps = std::max<int64_t>(1, static_cast<int64_t>(p.steps.size()));
  // Threads only pay off for a lot of work: about 4 elementwise grains' worth of element-steps.
  if (n * steps < 4 * kElementwiseGrain || blocks < 2) {
    run_range(0, blocks);
  } else {
    const int64_t grain = std::max<int64_t>(1, 2 * kElementwiseGrain / (steps * kBlock));
    parallel_for_balanced(blocks, grain, run_range);
  }
}

void fused_elementwise_kernel(KernelContext& c) {
  const DType t = c.attrs.get<DType>("T");
  for (size_t i = 0; i < c.num_inputs(); ++i) check_same_dtype(c.op, t, c.input(i)->dtype(), static_cast<int>(i));
  // The program depends only on the node's attrs and static input shapes: decode it once.
  const auto* cached = static_cast<const Compiled*>(c.attrs.kernel_cache());
  if (!cached) {
    const Shape s = c.attrs.get<Shape>("shape");
    EF_INVALID(s.fully_defined(), "_FusedElementwise: shape must be fully known");
    cached = static_cast<const Compiled*>(c.attrs.set_kernel_cache(std::make_shared<Compiled>(compile(c, s))));
  }
  const Compiled& p = *cached;
  const Shape& shape = p.shape;
  for (size_t i = 0; i < c.num_inputs(); ++i) {  // inputs must still match the decoded layout
    const TensorImpl& x = *c.input(i);
    const bool ok = p.locs[i].kind == Loc::kScalar ? x.num_elements() == 1 : x.shape() == shape;
    EF_INVALID(ok, "_FusedElementwise: input ", i, " has shape ", x.shape().to_string(), ", expected ",
               shape.to_string(), " or one element");
  }
  switch (t) {
    case DType::kFloat32: run_typed<float>(c, p, shape); break;
    case DType::kFloat64: run_typed<double>(c, p, shape); break;
    case DType::kInt32: run_typed<int32_t>(c, p, shape); break;
    case DType::kInt64: run_typed<int64_t>(c, p, shape); break;
    default: throw_error(Code::kInvalidArgument, "_FusedElementwise: unsupported dtype ", dtype_name(t));
  }
}

EF_REGISTER_CPU_KERNEL("_FusedElementwise", fused_elementwise_kernel);

}  // namespace
}  // namespace ef
