// Graph-build checks of the scatters' shapes (TF's ScatterNdShapeHelper): ScatterNd and
// TensorScatter* raise TF's ValueError text when known dims of indices, updates and the output
// disagree, before anything runs.
#pragma once
#include "core/shape.h"

namespace ef {

void check_scatter_nd_static_shapes(const Shape& indices, const Shape& updates, const Shape& output);

}  // namespace ef
