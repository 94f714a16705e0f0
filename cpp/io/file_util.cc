// File helpers: whole-file reads, temp-then-rename writes.
#include "io/file_util.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <random>

#include "core/errors.h"

namespace ef::io {

std::string read_file(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) {
    if (errno == ENOENT) throw_error(Code::kNotFound, path, "; No such file or directory");
    throw_error(Code::kUnknown, path, "; ", std::strerror(errno));
  }
  std::string out;
  char buf[1 << 16];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  bool failed = std::ferror(f);
  std::fclose(f);
  if (failed) throw_error(Code::kDataLoss, "Error reading ", path);
  return out;
}

bool file_exists(const std::string& path) {
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec);
}

std::string temp_name(const std::string& path) {
  // Not thread_local: a large TLS object would not fit the static TLS block of a dlopen'ed module.
  static std::mutex mu;
  static std::mt19937_64 rng{std::random_device{}()};
  std::lock_guard<std::mutex> lock(mu);
  return path + ".tempstate" + std::to_string(rng());
}

namespace {
constexpr size_t kBufferSize = 1 << 20;
}  // namespace

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)), tmp_(temp_name(path_)) {
  std::error_code ec;
  auto dir = std::filesystem::path(path_).parent_path();
  if (!dir.empty()) std::filesystem::create_directories(dir, ec);
  fd_ = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) {
    Code code = errno == ENOENT ? Code::kNotFound
                : errno == EACCES ? Code::kPermissionDenied : Code::kUnknown;
    throw_error(code, "Failed to create a file ", tmp_, ": ", std::strerror(errno));
  }
  buffer_.reserve(kBufferSize);
}

AtomicFile::~AtomicFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!renamed_) std::remove(tmp_.c_str());
}

void AtomicFile::write_all(const char* p, size_t n) {
  while (n > 0) {
    ssize_t w = ::write(fd_, p, std::min<size_t>(n, size_t{1} << 30));
    if (w < 0) {
      if (errno == EINTR) continue;
      throw_error(Code::kResourceExhausted, "Failed to write to ", tmp_, ": ", std::strerror(errno));
    }
    p += w;
    n -= static_cast<size_t>(w);
  }
}

void AtomicFile::flush_buffer() {
  write_all(buffer_.data(), buffer_.size());
  buffer_.clear();
}

void AtomicFile::append(const void* data, size_t n) {
  EF_REQUIRE(fd_ >= 0, Code::kFailedPrecondition, "File ", tmp_, " is closed");
  const char* p = static_cast<const char*>(data);
  if (buffer_.size() + n <= kBufferSize) {
    buffer_.append(p, n);
  } else {
    flush_buffer();
    if (n >= kBufferSize) write_all(p, n);
    else buffer_.append(p, n);
  }
  size_ += n;
}

void AtomicFile::close() {
  if (fd_ < 0) return;
  flush_buffer();
  int rc = ::close(fd_);
  fd_ = -1;
  if (rc != 0) throw_error(Code::kResourceExhausted, "Failed to write ", tmp_, ": ", std::strerror(errno));
}

void AtomicFile::rename() {
  if (std::rename(tmp_.c_str(), path_.c_str()) != 0)
    throw_error(Code::kUnknown, "Failed to rename ", tmp_, " to ", path_, ": ", std::strerror(errno));
  renamed_ = true;
}

}  // namespace ef::io
