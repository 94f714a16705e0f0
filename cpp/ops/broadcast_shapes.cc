// Broadcast shape rule.
#include "ops/broadcast_shapes.h"

#include <algorithm>
#include <vector>

#include "core/errors.h"

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

}  // namespace ef
