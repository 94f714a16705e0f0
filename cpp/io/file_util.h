// Whole-file reads and atomic file replacement for the writers of cpp/io.
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace ef::io {

// The file's bytes; NotFound when it does not exist, Unknown on other failures.
std::string read_file(const std::string& path);
bool file_exists(const std::string& path);

// `<path>.tempstate<random>`: where a file is written before it is renamed into place, so a
// crash never leaves a half-written file under the real name.
std::string temp_name(const std::string& path);

// An output file written under a temporary name; commit() closes it and renames it to `path`,
// destruction without commit() removes the temporary.
class AtomicFile {
 public:
  explicit AtomicFile(std::string path);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  void append(const void* data, size_t n);
  void append(std::string_view s) { append(s.data(), s.size()); }
  uint64_t size() const { return size_; }
  void close();    // closes the temporary (errors surface here, before any rename)
  void rename();   // renames the closed temporary into place
  void commit() { close(); rename(); }

 private:
  void write_all(const char* p, size_t n);
  void flush_buffer();

  std::string path_, tmp_;
  int fd_ = -1;
  std::string buffer_;  // small appends are gathered; large ones go straight to write(2)
  uint64_t size_ = 0;
  bool renamed_ = false;
};

}  // namespace ef::io
