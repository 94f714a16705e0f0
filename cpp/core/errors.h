// Error codes and the exception C++ code throws; bindings map each code to its tf.errors class.
#pragma once
#include <sstream>
#include <stdexcept>
#include <string>

namespace ef {

// Values match TensorFlow's error codes (tf.errors.*).
enum class Code : int {
  kCancelled = 1, kUnknown = 2, kInvalidArgument = 3, kDeadlineExceeded = 4, kNotFound = 5,
  kAlreadyExists = 6, kPermissionDenied = 7, kResourceExhausted = 8, kFailedPrecondition = 9,
  kAborted = 10, kOutOfRange = 11, kUnimplemented = 12, kInternal = 13, kUnavailable = 14,
  kDataLoss = 15,
};

// Thrown by kernels and the runtime. Python sees the matching tf.errors.OpError subclass.
class OpError : public std::runtime_error {
 public:
  OpError(Code code, const std::string& msg) : std::runtime_error(msg), code_(code) {}
  Code code() const { return code_; }

 private:
  Code code_;
};

// Python-level TypeError / ValueError raised from C++ (e.g. bad conversions).
class TypeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
class ValueError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

namespace detail {
inline void cat(std::ostringstream&) {}
template <typename T, typename... R>
void cat(std::ostringstream& os, const T& v, const R&... rest) {
  os << v;
  cat(os, rest...);
}
}  // namespace detail

template <typename... A>
std::string str_cat(const A&... a) {
  std::ostringstream os;
  detail::cat(os, a...);
  return os.str();
}

template <typename... A>
[[noreturn]] void throw_error(Code code, const A&... a) {
  throw OpError(code, str_cat(a...));
}

#define EF_REQUIRE(cond, code, ...)                      \
  do {                                                   \
    if (!(cond)) ::ef::throw_error(code, __VA_ARGS__);   \
  } while (0)

#define EF_INVALID(cond, ...) EF_REQUIRE(cond, ::ef::Code::kInvalidArgument, __VA_ARGS__)

}  // namespace ef
