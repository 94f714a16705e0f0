// TF's print formatting of tensors (tf.print, tf.strings.format); see print_format.h.
#include "kernels/cpu/print_format.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace ef {
namespace {

// TF runs its kernels with denormals flushed to zero, so subnormal values print as (signed) 0.
template <typename F>
F flush_subnormal(F v) {
  return std::fpclassify(v) == FP_SUBNORMAL ? std::copysign(F(0), v) : v;
}

std::string g_format(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

void append_element(std::string& out, const TensorImpl& t, int64_t i) {
  switch (t.dtype()) {
    case DType::kBool: out += t.data<bool>()[i] ? '1' : '0'; break;
    case DType::kInt8: out += std::to_string(t.data<int8_t>()[i]); break;
    case DType::kUInt8: out += std::to_string(t.data<uint8_t>()[i]); break;
    case DType::kInt16: out += std::to_string(t.data<int16_t>()[i]); break;
    case DType::kInt32: out += std::to_string(t.data<int32_t>()[i]); break;
    case DType::kInt64: out += std::to_string(t.data<int64_t>()[i]); break;
    case DType::kUInt16: out += std::to_string(t.data<uint16_t>()[i]); break;
    case DType::kUInt32: out += std::to_string(t.data<uint32_t>()[i]); break;
    case DType::kUInt64: out += std::to_string(t.data<uint64_t>()[i]); break;
    case DType::kBFloat16: out += format_float_for_print(static_cast<float>(t.data<bfloat16>()[i])); break;
    case DType::kFloat16: out += format_float_for_print(static_cast<float>(t.data<half>()[i])); break;
    case DType::kFloat32: out += format_float_for_print(t.data<float>()[i]); break;
    case DType::kFloat64: out += format_double_for_print(t.data<double>()[i]); break;
    case DType::kString:
      out += '"';
      out += escape_string_for_print(t.data<std::string>()[i]);
      out += '"';
      break;
    default: out += '?'; break;  // complex and resource values print as "?" in TF
  }
}

// Prints dimension `d` of the block starting at flat index `offset`; rows of higher dimensions
// are separated by one newline per remaining dimension and indented by their depth.
class Printer {
 public:
  Printer(const TensorImpl& t, int64_t summarize) : t_(t), s_(summarize), rank_(t.rank()), strides_(rank_, 1) {
    // Empty tensors print without strides (their other dims may be huge: the product would overflow).
    if (t.num_elements() > 0)
      for (int d = rank_ - 2; d >= 0; --d) strides_[d] = strides_[d + 1] * t.shape().dim(d + 1);
  }

  std::string run() {
    if (rank_ == 0) {
      if (s_ == 0) return "...";
      append_element(out_, t_, 0);
      return out_;
    }
    if (t_.num_elements() == 0) {
      // TF shows an empty tensor whose first dimension is not empty as a summarized one.
      if (s_ < 0 || t_.shape().dim(0) == 0) return "[]";
      return "[" + separator(0) + "...]";
    }
    dim(0, 0);
    return std::move(out_);
  }

 private:
  std::string separator(int d) const {
    if (d == rank_ - 1) return " ";
    return std::string(static_cast<size_t>(rank_ - 1 - d), '\n') + std::string(static_cast<size_t>(d + 1), ' ');
  }

  void item(int d, int64_t offset, int64_t i) {
    if (d == rank_ - 1) {
      append_element(out_, t_, offset + i);
    } else {
      dim(d + 1, offset + i * strides_[d]);
    }
  }

  void dim(int d, int64_t offset) {
    const int64_t n = t_.shape().dim(d);
    const std::string sep = separator(d);
    out_ += '[';
    if (s_ < 0 || n - s_ <= s_) {  // n <= 2 * s_ without overflow (summarize may be huge)
      for (int64_t i = 0; i < n; ++i) {
        if (i) out_ += sep;
        item(d, offset, i);
      }
    } else {
      for (int64_t i = 0; i < s_; ++i) {
        if (i) out_ += sep;
        item(d, offset, i);
      }
      out_ += sep;
      out_ += "...";
      for (int64_t i = n - s_; i < n; ++i) {
        out_ += sep;
        item(d, offset, i);
      }
    }
    out_ += ']';
  }

  const TensorImpl& t_;
  int64_t s_;
  int rank_;
  std::vector<int64_t> strides_;
  std::string out_;
};

}  // namespace

std::string format_float_for_print(float v) {
  v = flush_subnormal(v);
  std::string s = g_format(v, 6);
  if (std::isnan(v) || std::strtof(s.c_str(), nullptr) == v) return s;
  return g_format(v, 9);
}

std::string format_double_for_print(double v) {
  v = flush_subnormal(v);
  std::string s = g_format(v, 15);
  if (std::isnan(v) || std::strtod(s.c_str(), nullptr) == v) return s;
  return g_format(v, 17);
}

std::string escape_string_for_print(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (unsigned char c : s) {
    switch (c) {
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '"': out += "\\\""; break;
      case '\'': out += "\\'"; break;
      case '\\': out += "\\\\"; break;
      default:
        if (c < 0x20 || c == 0x7f) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\%03o", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out;
}

std::string format_tensor_for_print(const TensorImpl& t, int64_t summarize) {
  return Printer(t, summarize).run();
}

}  // namespace ef
