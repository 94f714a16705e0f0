// Included first by the sources compiled once per x86 ISA (ef_isa_variant in CMakeLists.txt:
// elementwise_isa_blocks.cc, reduction_isa_leaves.cc): EF_ISA names the copy (baseline when the
// build defines none), and each copy's table is EF_ISA_NAME(isa_blocks) -> isa_blocks_avx512.
#pragma once

#ifdef EF_ISA
#define EF_ISA_BASELINE 0
#else
#define EF_ISA baseline
#define EF_ISA_BASELINE 1
#endif
#define EF_ISA_JOIN2(a, b) a##_##b
#define EF_ISA_JOIN(a, b) EF_ISA_JOIN2(a, b)
#define EF_ISA_NAME(prefix) EF_ISA_JOIN(prefix, EF_ISA)
#define EF_ISA_STR2(x) #x
#define EF_ISA_STR(x) EF_ISA_STR2(x)
