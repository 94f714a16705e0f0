// The float/double reduction leaves (reduction_isa.h), compiled once per ISA like the elementwise
// blocks: CMakeLists.txt builds this file with EF_ISA naming the variant and that ISA's -m flags.
// Everything it instantiates is file-local (reduction_leaves.h, reduction_kernels.h), and
// cmake/check_isa_object.py fails the build when a copy exports another symbol.
#include "kernels/cpu/isa_copy.h"

#include <cstdint>
#include <limits>

#include "kernels/cpu/reduction_isa.h"
#include "kernels/cpu/reduction_kernels.h"
#include "kernels/cpu/reduction_leaves.h"

namespace ef {
namespace {

template <class Red, class T>
T contig(const T* p, int64_t n) {
  return pairwise_contig<Red, T, T>(p, n);
}

template <class Red, class T>
void cols(const T* p, int64_t rows, int64_t stride, int64_t w, T* acc) {
  pairwise_cols<Red, T, T>(p, rows, stride, w, acc);
}

template <bool kMax, class T>
int64_t first_extreme(const T* p, int64_t n) {
  constexpr T kInf = std::numeric_limits<T>::infinity();
  return first_extreme_index<kMax>(p, n, kMax ? -kInf : kInf);
}

template <class T>
constexpr IsaReduceLeaves<T> leaves() {
  return {{&contig<SumOp, T>, &contig<ProdOp, T>, &contig<MaxOp, T>, &contig<MinOp, T>},
          {&cols<SumOp, T>, &cols<ProdOp, T>, &cols<MaxOp, T>, &cols<MinOp, T>},
          {&first_extreme<false, T>, &first_extreme<true, T>}};
}

}  // namespace

// Constant-initialized: no code of this ISA runs before the CPU is checked.
extern const IsaReductions EF_ISA_NAME(isa_reductions);
const IsaReductions EF_ISA_NAME(isa_reductions) = {EF_ISA_STR(EF_ISA), leaves<float>(), leaves<double>()};

}  // namespace ef
