#include "ops/shape_merge.h"

namespace ef {

std::string partial_shape_string(const std::vector<int64_t>& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? "," : "") + (dims[i] < 0 ? std::string("?") : std::to_string(dims[i]));
  return s + "]";
}

std::string partial_shape_string(const Shape& s) {
  return s.rank_known() ? partial_shape_string(s.to_vector()) : "<unknown>";
}

std::string shape_merge_error(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  if (a.size() != b.size())
    return "Shapes must be equal rank, but are " + std::to_string(a.size()) + " and " + std::to_string(b.size());
  for (size_t d = 0; d < a.size(); ++d)
    if (a[d] >= 0 && b[d] >= 0 && a[d] != b[d])
      return "Dimension " + std::to_string(d) + " in both shapes must be equal, but are " + std::to_string(a[d]) +
             " and " + std::to_string(b[d]) + ". Shapes are " + partial_shape_string(a) + " and " +
             partial_shape_string(b) + ".";
  return "";
}

std::string shape_merge_error(const Shape& a, const Shape& b) {
  if (!a.rank_known() || !b.rank_known()) return "";
  return shape_merge_error(a.to_vector(), b.to_vector());
}

bool merge_shapes(const Shape& a, const Shape& b, Shape* out) {
  if (!a.rank_known() || !b.rank_known()) {
    *out = a.rank_known() ? a : b;
    return true;
  }
  if (a.rank() != b.rank()) return false;
  Shape m = a;
  for (int i = 0; i < a.rank(); ++i) {
    if (a[i] >= 0 && b[i] >= 0 && a[i] != b[i]) return false;
    if (a[i] < 0) m.set_dim(i, b[i]);
  }
  *out = m;
  return true;
}

bool shape_fits(const Shape& concrete, const Shape& expected) {
  if (!expected.rank_known()) return true;
  if (concrete.rank() != expected.rank()) return false;
  for (int d = 0; d < expected.rank(); ++d)
    if (expected[d] >= 0 && expected[d] != concrete[d]) return false;
  return true;
}

Shape ensure_shape_attr(const Attrs& attrs) {
  const AttrValue* v = attrs.find("shape");
  if (v == nullptr) return Shape::unknown_rank();
  if (const auto* s = std::get_if<Shape>(v)) return *s;
  if (const auto* dims = std::get_if<std::vector<int64_t>>(v)) return Shape(*dims);
  return Shape::unknown_rank();
}

}  // namespace ef
