// The widest vector the build (or the per-ISA copy) targets, for GCC's vector extensions: a generic
// vector wider than the ISA's registers is expanded element by element (argmax 15x slower on the
// baseline x86-64 build than one SSE register at a time). A const at namespace scope: each copy's
// translation unit has its own.
#pragma once

namespace ef {

#if defined(__AVX512F__)
constexpr int kVectorBytes = 64;
#elif defined(__AVX__)
constexpr int kVectorBytes = 32;
#else
constexpr int kVectorBytes = 16;
#endif

}  // namespace ef
