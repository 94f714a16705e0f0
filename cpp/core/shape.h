// Shape: dimensions of a tensor; a dimension may be unknown (-1) and so may the rank.
#pragma once
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

namespace ef {

constexpr int64_t kUnknownDim = -1;

class Shape {
 public:
  static constexpr int kInline = 6;

  Shape() = default;  // scalar
  Shape(std::initializer_list<int64_t> dims) { assign(dims.begin(), dims.size()); }
  explicit Shape(const std::vector<int64_t>& dims) { assign(dims.data(), dims.size()); }
  Shape(const int64_t* dims, size_t n) { assign(dims, n); }
  Shape(const Shape& o) { copy_from(o); }
  Shape& operator=(const Shape& o) {
    if (this != &o) copy_from(o);
    return *this;
  }
// GCC 12 reports a false maybe-uninitialized read here when a Shape is moved out of a
// std::variant (AttrValue); the members are always initialized.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
  Shape(Shape&& o) noexcept { move_from(o); }
  Shape& operator=(Shape&& o) noexcept {
    if (this != &o) move_from(o);
    return *this;
  }

  static Shape unknown_rank() {
    Shape s;
    s.unknown_rank_ = true;
    return s;
  }

  bool rank_known() const { return !unknown_rank_; }
  int rank() const { return unknown_rank_ ? -1 : static_cast<int>(n_); }
  int64_t dim(int i) const { return data()[i]; }
  int64_t operator[](int i) const { return data()[i]; }
  void set_dim(int i, int64_t v) { mutable_data()[i] = v; }
  const int64_t* begin() const { return data(); }
  const int64_t* end() const { return data() + n_; }

  bool fully_defined() const;           // rank and every dim known
  int64_t num_elements() const;         // -1 when not fully defined
  void push_back(int64_t d);
  void insert(int pos, int64_t d);
  void erase(int pos);
  std::vector<int64_t> to_vector() const { return std::vector<int64_t>(begin(), end()); }
  std::string to_string() const;        // "(2, 3)", "(None, 3)", "<unknown>"
  std::string to_list_string() const;   // "[2,3]" as in TF error messages

  bool operator==(const Shape& o) const;
  bool operator!=(const Shape& o) const { return !(*this == o); }

 private:
  const int64_t* data() const { return n_ <= kInline ? inline_ : heap_.data(); }
  int64_t* mutable_data() { return n_ <= kInline ? inline_ : heap_.data(); }
  void assign(const int64_t* d, size_t n);
  void copy_from(const Shape& o) {
    unknown_rank_ = o.unknown_rank_;
    assign(o.data(), o.n_);
  }
  void move_from(Shape& o) {
    unknown_rank_ = o.unknown_rank_;
    n_ = o.n_;
    if (n_ <= kInline) {
      std::memcpy(inline_, o.inline_, sizeof(int64_t) * n_);
    } else {
      heap_ = std::move(o.heap_);
    }
  }
#pragma GCC diagnostic pop

  size_t n_ = 0;
  bool unknown_rank_ = false;
  int64_t inline_[kInline] = {0, 0, 0, 0, 0, 0};
  std::vector<int64_t> heap_;
};

}  // namespace ef
