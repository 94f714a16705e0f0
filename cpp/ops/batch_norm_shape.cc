#include "ops/batch_norm_shape.h"

#include <string>

#include "core/errors.h"

namespace ef {

BatchNormGeometry batch_norm_geometry(const Shape& x, const Attrs& attrs) {
  const std::string fmt = attrs.get<std::string>("data_format", "NHWC");
  if (fmt != "NHWC" && fmt != "NCHW" && fmt != "NDHWC" && fmt != "NCDHW")
    throw_error(Code::kInvalidArgument, "Invalid data format: ", fmt);
  BatchNormGeometry g;
  if (!x.rank_known()) return g;
  if (x.rank() != 4 && x.rank() != 5)
    throw_error(Code::kInvalidArgument, "input must be 4 or 5-dimensional", x.to_list_string());
  const bool last = fmt.back() == 'C';
  const int cdim = last ? x.rank() - 1 : 1;
  g.channels = x[cdim];
  int64_t outer = 1, inner = 1;
  for (int i = 0; i < x.rank(); ++i) {
    if (i == cdim) continue;
    int64_t& part = i < cdim ? outer : inner;
    part = (part < 0 || x[i] < 0) ? -1 : part * x[i];
  }
  g.outer = outer, g.inner = inner;
  return g;
}

void check_batch_norm_vector(const char* name, const Shape& v, int64_t channels, bool unchecked) {
  if (!v.rank_known() || unchecked) return;
  if (v.rank() != 1) throw_error(Code::kInvalidArgument, name, " must be 1-dimensional", v.to_list_string());
  if (channels < 0 || v[0] < 0 || v[0] == channels) return;
  const std::string what = std::string(name);
  if (what == "mean" || what == "variance")
    throw_error(Code::kInvalidArgument, "When is_training=false, ", name,
                " must have the same number of elements as the channels of x, got ", v[0], " and ", channels);
  throw_error(Code::kInvalidArgument, name, " must have the same number of elements as the channels of x, got ", v[0],
              " and ", channels);
}

}  // namespace ef
