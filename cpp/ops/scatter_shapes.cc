// TF's ScatterNdShapeHelper: the leading dims of indices and updates, and the trailing dims of the
// output and updates, must merge (unknown dims merge with anything).
#include "ops/scatter_shapes.h"

#include <string>
#include <vector>

#include "core/errors.h"
#include "ops/shape_merge.h"

namespace ef {
namespace {

std::vector<int64_t> part(const Shape& s, int64_t from, int64_t to) {
  std::vector<int64_t> out;
  for (int64_t d = std::max<int64_t>(from, 0); d < std::min<int64_t>(to, s.rank()); ++d) out.push_back(s[static_cast<int>(d)]);
  return out;
}

}  // namespace

void check_scatter_nd_static_shapes(const Shape& indices, const Shape& updates, const Shape& output) {
  if (output.num_elements() == 0 && (indices.num_elements() > 0 || updates.num_elements() > 0))
    throw_error(Code::kInvalidArgument, "Indices and updates specified for empty input");
  if (!indices.rank_known() || !updates.rank_known() || updates.rank() == 0 || indices.rank() == 0) return;
  const int64_t outer = indices.rank() - 1, ix = indices[indices.rank() - 1];
  if (ix < 0) return;
  const std::vector<int64_t> pi = part(indices, 0, outer), pu = part(updates, 0, outer);
  std::string e = shape_merge_error(pi, pu);
  if (!e.empty())
    throw_error(Code::kInvalidArgument, "Dimensions [0,", outer, ") of indices[shape=", partial_shape_string(indices), "] = ",
                partial_shape_string(pi), " must match dimensions [0,", outer, ") of updates[shape=", partial_shape_string(updates), "] = ",
                partial_shape_string(pu), ": ", e);
  if (!output.rank_known() || ix > output.rank()) return;
  const std::vector<int64_t> so = part(output, ix, output.rank()), su = part(updates, outer, updates.rank());
  e = shape_merge_error(so, su);
  if (!e.empty())
    throw_error(Code::kInvalidArgument, "Dimensions [", ix, ",", output.rank(), ") of input[shape=", partial_shape_string(output),
                "] = ", partial_shape_string(so), " must match dimensions [", outer, ",", updates.rank(), ") of updates[shape=",
                partial_shape_string(updates), "] = ", partial_shape_string(su), ": ", e);
}

}  // namespace ef
