// TF's ScatterNdShapeHelper: the leading dims of indices and updates, and the trailing dims of the
// output and updates, must merge (unknown dims merge with anything).
#include "ops/scatter_shapes.h"

#include <string>
#include <vector>

#include "core/errors.h"

namespace ef {
namespace {

std::string debug(const std::vector<int64_t>& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? "," : "") + (dims[i] < 0 ? std::string("?") : std::to_string(dims[i]));
  return s + "]";
}

std::vector<int64_t> part(const Shape& s, int64_t from, int64_t to) {
  std::vector<int64_t> out;
  for (int64_t d = std::max<int64_t>(from, 0); d < std::min<int64_t>(to, s.rank()); ++d) out.push_back(s[static_cast<int>(d)]);
  return out;
}

// "" when a and b merge, else TF's InferenceContext::Merge message.
std::string merge_error(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  if (a.size() != b.size())
    return "Shapes must be equal rank, but are " + std::to_string(a.size()) + " and " + std::to_string(b.size());
  for (size_t d = 0; d < a.size(); ++d)
    if (a[d] >= 0 && b[d] >= 0 && a[d] != b[d])
      return "Dimension " + std::to_string(d) + " in both shapes must be equal, but are " + std::to_string(a[d]) +
             " and " + std::to_string(b[d]) + ". Shapes are " + debug(a) + " and " + debug(b) + ".";
  return "";
}

std::string debug(const Shape& s) { return s.rank_known() ? debug(s.to_vector()) : "<unknown>"; }

}  // namespace

void check_scatter_nd_static_shapes(const Shape& indices, const Shape& updates, const Shape& output) {
  if (output.num_elements() == 0 && (indices.num_elements() > 0 || updates.num_elements() > 0))
    throw_error(Code::kInvalidArgument, "Indices and updates specified for empty input");
  if (!indices.rank_known() || !updates.rank_known() || updates.rank() == 0 || indices.rank() == 0) return;
  const int64_t outer = indices.rank() - 1, ix = indices[indices.rank() - 1];
  if (ix < 0) return;
  const std::vector<int64_t> pi = part(indices, 0, outer), pu = part(updates, 0, outer);
  std::string e = merge_error(pi, pu);
  if (!e.empty())
    throw_error(Code::kInvalidArgument, "Dimensions [0,", outer, ") of indices[shape=", debug(indices), "] = ",
                debug(pi), " must match dimensions [0,", outer, ") of updates[shape=", debug(updates), "] = ",
                debug(pu), ": ", e);
  if (!output.rank_known() || ix > output.rank()) return;
  const std::vector<int64_t> so = part(output, ix, output.rank()), su = part(updates, outer, updates.rank());
  e = merge_error(so, su);
  if (!e.empty())
    throw_error(Code::kInvalidArgument, "Dimensions [", ix, ",", output.rank(), ") of input[shape=", debug(output),
                "] = ", debug(so), " must match dimensions [", outer, ",", updates.rank(), ") of updates[shape=",
                debug(updates), "] = ", debug(su), ": ", e);
}

}  // namespace ef
