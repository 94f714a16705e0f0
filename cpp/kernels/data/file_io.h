// Files for tf.data and tf.io: errors worded as TF's file system words them ("<name>; No such file
// or directory" as NotFound), glob matching as MatchingFiles does it.
#pragma once
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace ef {

// Throws TF's error for errno `err` on `filename` (NotFound, PermissionDenied, ...).
[[noreturn]] void throw_file_error(const std::string& filename, int err);

// A source of bytes read in order.
class InputStream {
 public:
  virtual ~InputStream() = default;
  // Up to n bytes into buf; 0 at the end.
  virtual size_t read(char* buf, size_t n) = 0;
};

// A file opened for reading; a directory is FailedPrecondition "<name>; Is a directory".
class ReadableFile final : public InputStream {
 public:
  explicit ReadableFile(const std::string& filename);
  ~ReadableFile() override;
  ReadableFile(const ReadableFile&) = delete;
  ReadableFile& operator=(const ReadableFile&) = delete;
  size_t read(char* buf, size_t n) override;

 private:
  std::string name_;
  int fd_ = -1;
};

// The paths matching a glob pattern (*, ?, [...] within one path component), sorted; a pattern
// without wildcards matches itself when the path exists. Relative patterns with wildcards
// match as "./name", as TF's.
std::vector<std::string> matching_files(const std::string& pattern);

bool file_exists(const std::string& path);

// `filename` opened as TF's readers open it: compression_type "" (plain), "GZIP" or "ZLIB"
// (InvalidArgument "Unsupported compression_type." otherwise; Unimplemented for GZIP/ZLIB in a
// build without zlib). A corrupt stream is DataLoss "inflate() failed with error <n>: <why>"; a
// truncated one ends where its data ends, as TF's.
std::unique_ptr<InputStream> open_input(const std::string& filename, const std::string& compression_type,
                                        size_t buffer_size);
// Throws unless compression_type is one open_input takes.
void check_compression_type(const std::string& compression_type);

}  // namespace ef
