// The layout of a fused batch norm's x: rows x channels x inner (channels last: inner = 1), with
// TF's checks. Inference and the CPU kernels share it.
#pragma once
#include <cstdint>

#include "core/shape.h"
#include "ops/attrs.h"

namespace ef {

struct BatchNormGeometry {
  int64_t outer = -1, channels = -1, inner = -1;  // -1: unknown
  int64_t count() const { return outer * inner; }  // values per channel
};

BatchNormGeometry batch_norm_geometry(const Shape& x, const Attrs& attrs);

// scale/offset/mean/variance must hold one value per channel (`unchecked`: mean and variance when
// training, which TF ignores).
void check_batch_norm_vector(const char* name, const Shape& v, int64_t channels, bool unchecked);

}  // namespace ef
