// POSIX file access for the file-reading datasets and MatchingFiles.
#include "kernels/data/file_io.h"

#include <fcntl.h>
#include <glob.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

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
