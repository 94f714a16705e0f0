// CPU kernels of StringToNumber (TF's parsing: surrounding ASCII whitespace, inf/nan and hex floats,
// decimal integers with range checks) and AsString (printf formats built from the attrs as TF
// builds them).
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <type_traits>

#include "core/half.h"
#include "kernels/cpu/broadcast.h"
#include "ops/op_util.h"
#include "ops/signature.h"

namespace ef {
namespace {

bool is_ascii_space(char ch) {
  return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\v' || ch == '\f' || ch == '\r';
}

// The string without surrounding whitespace; false when nothing is left.
bool trimmed(const std::string& s, std::string& out) {
  size_t b = 0, e = s.size();
  while (b < e && is_ascii_space(s[b])) ++b;
  while (e > b && is_ascii_space(s[e - 1])) --e;
  if (b == e) return false;
  out.assign(s, b, e - b);
  return true;
}

template <typename T>
bool parse_float(const std::string& s, T* out) {
  std::string t;
  if (!trimmed(s, t) || is_ascii_space(t[0])) return false;
  // strtod would take "+-1"; a sign is followed by a digit, '.', or a letter of inf/nan.
  const char* p = t.c_str();
  char* end = nullptr;
  if constexpr (std::is_same_v<T, float>) *out = std::strtof(p, &end);
  else *out = std::strtod(p, &end);
  return end == p + t.size() && end != p;
}

template <typename T>
bool parse_int(const std::string& s, T* out) {
  std::string t;
  if (!trimmed(s, t)) return false;
  size_t i = 0;
  const bool neg = t[0] == '-';
  if (t[0] == '-' || t[0] == '+') ++i;
  if (i == t.size()) return false;
  // Accumulate the magnitude as unsigned, checking the range of T on the way.
  const uint64_t limit = neg ? uint64_t(std::numeric_limits<T>::max()) + 1 : uint64_t(std::numeric_limits<T>::max());
  uint64_t v = 0;
  for (; i < t.size(); ++i) {
    if (t[i] < '0' || t[i] > '9') return false;
    const uint64_t d = static_cast<uint64_t>(t[i] - '0');
    if (v > (limit - d) / 10) return false;
    v = v * 10 + d;
  }
  *out = neg ? static_cast<T>(0 - v) : static_cast<T>(v);
  return true;
}

template <typename T>
void to_number(KernelContext& c) {
  const TensorImpl& in = *c.input(0);
  TensorImpl* out = c.allocate_output(0, DTypeOf<T>::value, in.shape());
  const std::string* pi = in.data<std::string>();
  T* po = out->data<T>();
  for (int64_t i = 0; i < in.num_elements(); ++i) {
    bool ok;
    if constexpr (std::is_floating_point_v<T>) ok = parse_float(pi[i], &po[i]);
    else ok = parse_int(pi[i], &po[i]);
    EF_INVALID(ok, "StringToNumberOp could not correctly convert string: ", pi[i]);
  }
}

void string_to_number_kernel(KernelContext& c) {
  switch (c.attrs.get<DType>("out_type", DType::kFloat32)) {
    case DType::kFloat32: return to_number<float>(c);
    case DType::kFloat64: return to_number<double>(c);
    case DType::kInt32: return to_number<int32_t>(c);
    case DType::kInt64: return to_number<int64_t>(c);
    default: throw_no_kernel(c.op, "out_type", c.attrs.get<DType>("out_type"));
  }
}

// ---- AsString ----

std::string format_one(const char* fmt, double v) {
  const int n = std::snprintf(nullptr, 0, fmt, v);
  std::string s(static_cast<size_t>(n), '\0');
  std::snprintf(s.data(), s.size() + 1, fmt, v);
  return s;
}

std::string format_one(const char* fmt, long long v) {
  const int n = std::snprintf(nullptr, 0, fmt, v);
  std::string s(static_cast<size_t>(n), '\0');
  std::snprintf(s.data(), s.size() + 1, fmt, v);
  return s;
}

std::string format_one(const char* fmt, const std::string& v) {
  const int n = std::snprintf(nullptr, 0, fmt, v.c_str());
  std::string s(static_cast<size_t>(n), '\0');
  std::snprintf(s.data(), s.size() + 1, fmt, v.c_str());
  return s;
}

void as_string_kernel(KernelContext& c) {
  const TensorImpl& in = *c.input(0);
  const DType dt = in.dtype();
  const int64_t precision = c.attrs.get<int64_t>("precision", -1), width = c.attrs.get<int64_t>("width", -1);
  const bool scientific = c.attrs.get<bool>("scientific", false), shortest = c.attrs.get<bool>("shortest", false);
  const std::string fill = c.attrs.get<std::string>("fill", "");
  const bool is_float = dtype_is_floating(dt) || dtype_is_complex(dt);
  const std::string dt_name = dtype_name(dt);
  EF_INVALID(!(scientific && shortest), "Cannot select both scientific and shortest notation");
  EF_INVALID(is_float || !(scientific || shortest), "scientific and shortest format not supported for datatype ",
             dt_name);
  EF_INVALID(is_float || precision <= -1, "precision not supported for datatype ", dt_name);
  EF_INVALID(fill.size() <= 1, "Fill string must be one or fewer characters");
  EF_INVALID(fill.empty() || std::string(" +-0#").find(fill[0]) != std::string::npos,
             "Fill argument not supported: \"", fill, "\"");
  // printf's own limits on field width and precision.
  EF_INVALID(width < (1 << 20) && precision < (1 << 20), "width and precision must be below 1048576");
  std::string fmt = "%" + fill;
  if (width > -1) fmt += std::to_string(width);
  if (precision > -1) fmt += "." + std::to_string(precision);
  if (is_float) fmt += shortest ? "g" : scientific ? "e" : "f";
  else if (dt == DType::kString) fmt += "s";
  else if (dt == DType::kUInt64) fmt += "llu";  // the same bits as a long long: snprintf reads them unsigned
  else if (dt != DType::kBool) fmt += "lld";
  TensorImpl* out = c.allocate_output(0, DType::kString, in.shape(), false);
  std::string* po = out->data<std::string>();
  const int64_t n = in.num_elements();
  const char* f = fmt.c_str();
  switch (dt) {
    case DType::kBool:
      for (int64_t i = 0; i < n; ++i) po[i] = in.data<bool>()[i] ? "true" : "false";
      return;
    case DType::kString:
      for (int64_t i = 0; i < n; ++i) po[i] = format_one(f, in.data<std::string>()[i]);
      return;
    case DType::kComplex64:
      for (int64_t i = 0; i < n; ++i) {
        const complex64 z = in.data<complex64>()[i];
        po[i] = "(" + format_one(f, double(z.real())) + "," + format_one(f, double(z.imag())) + ")";
      }
      return;
    case DType::kComplex128:
      for (int64_t i = 0; i < n; ++i) {
        const complex128 z = in.data<complex128>()[i];
        po[i] = "(" + format_one(f, z.real()) + "," + format_one(f, z.imag()) + ")";
      }
      return;
    case DType::kFloat16:
      for (int64_t i = 0; i < n; ++i) po[i] = format_one(f, double(float(in.data<half>()[i])));
      return;
    case DType::kBFloat16:
      for (int64_t i = 0; i < n; ++i) po[i] = format_one(f, double(float(in.data<bfloat16>()[i])));
      return;
    case DType::kFloat32:
      for (int64_t i = 0; i < n; ++i) po[i] = format_one(f, double(in.data<float>()[i]));
      return;
    case DType::kFloat64:
      for (int64_t i = 0; i < n; ++i) po[i] = format_one(f, in.data<double>()[i]);
      return;
    default:
      switch (dt) {
        EF_CASES_INT(for (int64_t i = 0; i < n; ++i) po[i] = format_one(f, static_cast<long long>(in.data<T>()[i])))
        EF_CASES_WIDE_UINT(
            for (int64_t i = 0; i < n; ++i) po[i] = format_one(f, static_cast<long long>(in.data<T>()[i])))
        default: throw_no_kernel(c.op, "T", dt);
      }
  }
}

EF_REGISTER_CPU_KERNEL("StringToNumber", string_to_number_kernel);
EF_REGISTER_CPU_KERNEL("AsString", as_string_kernel);

}  // namespace
}  // namespace ef
