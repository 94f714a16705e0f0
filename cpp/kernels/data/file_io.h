// Files for tf.data and tf.io: errors worded as TF's file system words them ("<name>; No such file
// or directory" as NotFound), glob matching as MatchingFiles does it.
#pragma once
#include <cstdio>
#include <string>
#include <vector>

namespace ef {

// Throws TF's error for errno `err` on `filename` (NotFound, PermissionDenied, ...).
[[noreturn]] void throw_file_error(const std::string& filename, int err);

// A file opened for reading; a directory is FailedPrecondition "<name>; Is a directory".
class ReadableFile {
 public:
  explicit ReadableFile(const std::string& filename);
  ~ReadableFile();
  ReadableFile(const ReadableFile&) = delete;
  ReadableFile& operator=(const ReadableFile&) = delete;
  // Up to n bytes into buf; 0 at the end.
  size_t read(char* buf, size_t n);

 private:
  std::string name_;
  int fd_ = -1;
};

// The paths matching a glob pattern (*, ?, [...] within one path component), sorted; a pattern
// without wildcards matches itself when the path exists. Relative patterns with wildcards
// match as "./name", as TF's.
std::vector<std::string> matching_files(const std::string& pattern);

bool file_exists(const std::string& path);

}  // namespace ef
