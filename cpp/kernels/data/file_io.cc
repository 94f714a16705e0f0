// POSIX file access for the file-reading datasets and MatchingFiles.
#include "kernels/data/file_io.h"

#include <fcntl.h>
#include <glob.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#ifdef EF_HAVE_ZLIB
#include <zlib.h>
#endif

#include "core/errors.h"

namespace ef {

void throw_file_error(const std::string& filename, int err) {
  Code code = Code::kUnknown;
  switch (err) {
    case ENOENT: case ENOTDIR: code = Code::kNotFound; break;
    case EACCES: case EPERM: case EROFS: code = Code::kPermissionDenied; break;
    case EEXIST: code = Code::kAlreadyExists; break;
    case EISDIR: code = Code::kFailedPrecondition; break;
    case ENOSPC: case EMFILE: case ENFILE: case ENOMEM: code = Code::kResourceExhausted; break;
    default: break;
  }
  throw_error(code, filename, "; ", std::strerror(err));
}

ReadableFile::ReadableFile(const std::string& filename) : name_(filename) {
  fd_ = ::open(filename.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) throw_file_error(filename, errno);
  struct stat st;
  if (::fstat(fd_, &st) == 0 && S_ISDIR(st.st_mode)) {
    ::close(fd_);
    fd_ = -1;
    throw_file_error(filename, EISDIR);
  }
}

ReadableFile::~ReadableFile() {
  if (fd_ >= 0) ::close(fd_);
}

size_t ReadableFile::read(char* buf, size_t n) {
  for (;;) {
    ssize_t r = ::read(fd_, buf, n);
    if (r >= 0) return static_cast<size_t>(r);
    if (errno != EINTR) throw_file_error(name_, errno);
  }
}

#ifdef EF_HAVE_ZLIB
namespace {

// zlib's inflate over another stream; GZIP may hold several members one after another.
class InflateStream final : public InputStream {
 public:
  InflateStream(std::unique_ptr<InputStream> in, bool gzip, size_t buffer_size)
      : in_(std::move(in)), buf_(buffer_size) {
    if (inflateInit2(&z_, gzip ? 16 + MAX_WBITS : MAX_WBITS) != Z_OK)
      throw_error(Code::kResourceExhausted, "inflateInit2() failed");
  }
  ~InflateStream() override { inflateEnd(&z_); }
  size_t read(char* out, size_t n) override {
    z_.next_out = reinterpret_cast<Bytef*>(out);
    z_.avail_out = static_cast<uInt>(n);
    while (z_.avail_out == n && !done_) {
      if (z_.avail_in == 0 && !refill()) break;  // truncated: what was decoded is all there is
      const int rc = inflate(&z_, Z_NO_FLUSH);
      if (rc == Z_STREAM_END) {
        if (z_.avail_in == 0 && !refill()) {
          done_ = true;
        } else {
          inflateReset(&z_);
        }
      } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
        throw_error(Code::kDataLoss, "inflate() failed with error ", rc, ": ", z_.msg ? z_.msg : "");
      }
    }
    return n - z_.avail_out;
  }

 private:
  bool refill() {
    const size_t got = in_->read(buf_.data(), buf_.size());
    z_.next_in = reinterpret_cast<Bytef*>(buf_.data());
    z_.avail_in = static_cast<uInt>(got);
    return got > 0;
  }
  std::unique_ptr<InputStream> in_;
  std::vector<char> buf_;
  z_stream z_{};
  bool done_ = false;
};

}  // namespace
#endif

void check_compression_type(const std::string& kind) {
  if (kind != "" && kind != "GZIP" && kind != "ZLIB") throw_error(Code::kInvalidArgument, "Unsupported compression_type.");
#ifndef EF_HAVE_ZLIB
  if (!kind.empty()) throw_error(Code::kUnimplemented, "compression_type ", kind, " needs zlib, which this build lacks");
#endif
}

std::unique_ptr<InputStream> open_input(const std::string& filename, const std::string& kind, size_t buffer_size) {
  check_compression_type(kind);
  auto file = std::make_unique<ReadableFile>(filename);
#ifdef EF_HAVE_ZLIB
  if (!kind.empty()) return std::make_unique<InflateStream>(std::move(file), kind == "GZIP", buffer_size);
#endif
  (void)buffer_size;
  return file;
}

bool file_exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

std::vector<std::string> matching_files(const std::string& pattern) {
  std::vector<std::string> out;
  if (pattern.find_first_of("*?[") == std::string::npos) {
    if (file_exists(pattern)) out.push_back(pattern);
    return out;
  }
  const std::string p = pattern[0] == '/' || pattern.rfind("./", 0) == 0 ? pattern : "./" + pattern;
  glob_t g;
  const int rc = ::glob(p.c_str(), GLOB_PERIOD | GLOB_NOSORT, nullptr, &g);
  if (rc == 0) {
    for (size_t i = 0; i < g.gl_pathc; ++i) {
      std::string path = g.gl_pathv[i];
      const std::string base = path.substr(path.find_last_of('/') + 1);
      if (base != "." && base != "..") out.push_back(std::move(path));
    }
  }
  globfree(&g);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace ef
