// TFRecord files (event files): each record is uint64 length, masked CRC-32C of the length,
// the bytes, masked CRC-32C of the bytes (all little-endian).
#pragma once
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace ef::io {

// Appends records to a file that is created (or truncated) at construction. Event files grow
// while training runs, so they are not renamed into place: a crash loses at most the tail
// record, which readers skip as truncated.
class RecordWriter {
 public:
  explicit RecordWriter(std::string path);
  ~RecordWriter();
  RecordWriter(const RecordWriter&) = delete;
  RecordWriter& operator=(const RecordWriter&) = delete;
  void write(std::string_view record);
  void flush();
  void close();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::FILE* f_ = nullptr;
};

// Every record of a file. A corrupt record is DataLoss naming the file; a truncated last
// record ends the list when `allow_truncated_tail` (a writer may still be appending).
std::vector<std::string> read_records(const std::string& path, bool allow_truncated_tail = true);

}  // namespace ef::io
