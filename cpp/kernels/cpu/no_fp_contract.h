// Included last by kernels whose results must equal separately rounded products and sums (TF's
// kernels, or the unfused ops a fused kernel replaces): no fused multiply-add in what follows,
// whatever -march allows.
#pragma once

#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif
