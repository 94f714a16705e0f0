// Shape helpers: element counts, printing, editing.
#include "core/shape.h"

#include <sstream>

namespace ef {

void Shape::assign(const int64_t* d, size_t n) {
  n_ = n;
  if (n <= kInline) {
    heap_.clear();
    if (n) std::memcpy(inline_, d, sizeof(int64_t) * n);
  } else {
    heap_.assign(d, d + n);
  }
}

bool Shape::fully_defined() const {
  if (unknown_rank_) return false;
  for (int64_t d : *this)
    if (d < 0) return false;
  return true;
}

int64_t Shape::num_elements() const {
  if (!fully_defined()) return -1;
  int64_t n = 1;
  bool overflow = false;
  for (int64_t d : *this) {
    if (d == 0) return 0;
    overflow |= __builtin_mul_overflow(n, d, &n);
  }
  // Saturate: an impossible size must fail allocation, never wrap to a small one.
  return overflow ? INT64_MAX : n;
}

void Shape::push_back(int64_t d) { insert(static_cast<int>(n_), d); }

void Shape::insert(int pos, int64_t d) {
  std::vector<int64_t> v = to_vector();
  v.insert(v.begin() + pos, d);
  assign(v.data(), v.size());
}

void Shape::erase(int pos) {
  std::vector<int64_t> v = to_vector();
  v.erase(v.begin() + pos);
  assign(v.data(), v.size());
}

std::string Shape::to_string() const {
  if (unknown_rank_) return "<unknown>";
  std::ostringstream os;
  os << "(";
  for (size_t i = 0; i < n_; ++i) {
    if (i) os << ", ";
    if (dim(i) < 0) os << "None"; else os << dim(i);
  }
  if (n_ == 1) os << ",";
  os << ")";
  return os.str();
}

std::string Shape::to_list_string() const {
  if (unknown_rank_) return "<unknown>";
  std::ostringstream os;
  os << "[";
  for (size_t i = 0; i < n_; ++i) {
    if (i) os << ",";
    os << dim(i);
  }
  os << "]";
  return os.str();
}

bool Shape::operator==(const Shape& o) const {
  if (unknown_rank_ != o.unknown_rank_ || n_ != o.n_) return false;
  for (size_t i = 0; i < n_; ++i)
    if (dim(i) != o.dim(i)) return false;
  return true;
}

}  // namespace ef
