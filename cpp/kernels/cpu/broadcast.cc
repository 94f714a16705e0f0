// Broadcast shape rules.
#include "kernels/cpu/broadcast.h"

#include <algorithm>

namespace ef {

Shape broadcast_shapes(const Shape& a, const Shape& b) {
  if (!a.rank_known() || !b.rank_known()) return Shape::unknown_rank();
  const int r = std::max(a.rank(), b.rank());
  std::vector<int64_t> out(r);
  for (int i = 0; i < r; ++i) {
    int ia = a.rank() - r + i, ib = b.rank() - r + i;
    int64_t da = ia >= 0 ? a[ia] : 1, db = ib >= 0 ? b[ib] : 1;
    if (da == db) {
      out[i] = da;
    } else if (da == 1) {
      out[i] = db;
    } else if (db == 1) {
      out[i] = da;
    } else if (da < 0 || db < 0) {
      out[i] = da < 0 ? (db >= 0 && db != 1 ? db : -1) : da;
    } else {
      throw_error(Code::kInvalidArgument, "Incompatible shapes: ", a.to_list_string(), " vs. ",
                  b.to_list_string());
    }
  }
  return Shape(out);
}

std::vector<int64_t> broadcast_strides(const Shape& in, const Shape& out) {
  const int r = out.rank(), ri = in.rank();
  std::vector<int64_t> s(r, 0);
  int64_t stride = 1;
  for (int i = ri - 1; i >= 0; --i) {
    int o = r - ri + i;
    s[o] = in[i] == 1 && out[o] != 1 ? 0 : stride;
    stride *= in[i];
  }
  return s;
}

}  // namespace ef
