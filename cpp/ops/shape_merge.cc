#include "ops/shape_merge.h"

namespace ef {

std::string shape_debug_string(const std::vector<int64_t>& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? "," : "") + (dims[i] < 0 ? std::string("?") : std::to_string(dims[i]));
  return s + "]";
}

std::string shape_debug_string(const Shape& s) { return s.rank_known() ? shape_debug_string(s.to_vector()) : "<unknown>"; }

std::string shape_merge_error(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  if (a.size() != b.size())
    return "Shapes must be equal rank, but are " + std::to_string(a.size()) + " and " + std::to_string(b.size());
  for (size_t d = 0; d < a.size(); ++d)
    if (a[d] >= 0 && b[d] >= 0 && a[d] != b[d])
      return "Dimension " + std::to_string(d) + " in both shapes must be equal, but are " + std::to_string(a[d]) +
             " and " + std::to_string(b[d]) + ". Shapes are " + shape_debug_string(a) + " and " +
             shape_debug_string(b) + ".";
  return "";
}

std::string shape_merge_error(const Shape& a, const Shape& b) {
  if (!a.rank_known() || !b.rank_known()) return "";
  return shape_merge_error(a.to_vector(), b.to_vector());
}

Shape merge_shapes(const Shape& a, const Shape& b) {
  if (!a.rank_known()) return b;
  if (!b.rank_known()) return a;
  Shape out = a;
  for (int d = 0; d < a.rank(); ++d)
    if (a[d] < 0) out.set_dim(d, b[d]);
  return out;
}

Shape ensure_shape_attr(const Attrs& attrs) {
  const AttrValue* v = attrs.find("shape");
  if (v == nullptr) return Shape::unknown_rank();
  if (const auto* s = std::get_if<Shape>(v)) return *s;
  if (const auto* dims = std::get_if<std::vector<int64_t>>(v)) return Shape(*dims);
  return Shape::unknown_rank();
}

bool shape_fits(const Shape& concrete, const Shape& expected) {
  if (!expected.rank_known()) return true;
  if (concrete.rank() != expected.rank()) return false;
  for (int d = 0; d < expected.rank(); ++d)
    if (expected[d] >= 0 && expected[d] != concrete[d]) return false;
  return true;
}

}  // namespace ef
