// Picks the per-ISA copies' variant by the CPU's features: one variant for all of them, the
// elementwise blocks (elementwise_isa.h) and the reductions' leaves (reduction_isa.h), so
// set_elementwise_isa switches both.
#include "kernels/cpu/elementwise_isa.h"

#include <atomic>
#include <string>
#include <vector>

#include "core/errors.h"
#include "kernels/cpu/reduction_isa.h"

namespace ef {

// Defined by the copies of elementwise_isa_blocks.cc and reduction_isa_leaves.cc that CMake built
// (EF_ISA_COPIES: the avx512 and avx2 ones too).
extern const IsaBlocks isa_blocks_baseline;
extern const IsaReductions isa_reductions_baseline;
#if EF_ISA_COPIES
extern const IsaBlocks isa_blocks_avx512;
extern const IsaBlocks isa_blocks_avx2;
extern const IsaReductions isa_reductions_avx512;
extern const IsaReductions isa_reductions_avx2;
#endif

namespace {

struct Variant {
  const IsaBlocks* compiled;
  IsaBlocks resolved;  // the compiled entries, the baseline's where a variant has none
  const IsaReductions* reductions;
};

bool cpu_has(const std::string& name) {
#if defined(__x86_64__) && defined(__GNUC__)
  // The features of the flags CMakeLists.txt compiles the variant with.
  if (name == "avx512")
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
           __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  if (name == "avx2") return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#endif
  return name == "baseline";
}

[[maybe_unused]] IsaBlocks resolve(const IsaBlocks& v) {
  IsaBlocks r = v;
  for (int i = 0; i < kUnaryOpCount; ++i) {
    if (!r.f32[i]) r.f32[i] = isa_blocks_baseline.f32[i];
    if (!r.f64[i]) r.f64[i] = isa_blocks_baseline.f64[i];
  }
  return r;
}

// The variants, fastest first.
struct Variants {
  std::vector<Variant> list;
  Variants() {
#if EF_ISA_COPIES
    list.push_back({&isa_blocks_avx512, resolve(isa_blocks_avx512), &isa_reductions_avx512});
    list.push_back({&isa_blocks_avx2, resolve(isa_blocks_avx2), &isa_reductions_avx2});
#endif
    list.push_back({&isa_blocks_baseline, isa_blocks_baseline, &isa_reductions_baseline});
  }
};

const Variants& variants() {
  static const Variants v;
  return v;
}

const Variant* best() {
  for (const Variant& v : variants().list)
    if (cpu_has(v.compiled->name)) return &v;
  return &variants().list.back();
}

std::atomic<const Variant*>& active() {
  static std::atomic<const Variant*> a{best()};
  return a;
}

}  // namespace

const IsaBlocks& isa_blocks() { return active().load(std::memory_order_relaxed)->resolved; }

const IsaReductions& isa_reductions() { return *active().load(std::memory_order_relaxed)->reductions; }

std::string elementwise_isa() { return isa_blocks().name; }

void set_elementwise_isa(const std::string& name) {
  if (name == "auto") return active().store(best());
  for (const Variant& v : variants().list)
    if (name == v.compiled->name) {
      if (!cpu_has(name)) throw_error(Code::kInvalidArgument, "set_elementwise_isa: this CPU has no '", name, "'");
      return active().store(&v);
    }
  throw_error(Code::kInvalidArgument, "set_elementwise_isa: this build has no '", name,
              "' variant (auto, avx512, avx2, baseline)");
}

}  // namespace ef
