// TFRecord writer and reader.
#include "io/record_io.h"

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "core/errors.h"
#include "io/crc32c.h"
#include "io/file_util.h"

namespace ef::io {

RecordWriter::RecordWriter(std::string path) : path_(std::move(path)) {
  std::error_code ec;
  auto dir = std::filesystem::path(path_).parent_path();
  if (!dir.empty()) std::filesystem::create_directories(dir, ec);
  f_ = std::fopen(path_.c_str(), "wb");
  if (!f_) throw_error(Code::kNotFound, "Failed to create a file ", path_, ": ", std::strerror(errno));
}

RecordWriter::~RecordWriter() {
  if (f_) std::fclose(f_);
}

void RecordWriter::write(std::string_view record) {
  EF_REQUIRE(f_, Code::kFailedPrecondition, "RecordWriter for ", path_, " is closed");
  char header[12];
  uint64_t n = record.size();
  std::memcpy(header, &n, 8);
  uint32_t len_crc = crc32c_mask(crc32c(header, 8));
  std::memcpy(header + 8, &len_crc, 4);
  uint32_t data_crc = crc32c_mask(crc32c(record.data(), record.size()));
  if (std::fwrite(header, 1, 12, f_) != 12 ||
      (n && std::fwrite(record.data(), 1, n, f_) != n) ||
      std::fwrite(&data_crc, 1, 4, f_) != 4)
    throw_error(Code::kResourceExhausted, "Failed to write to ", path_, ": ", std::strerror(errno));
}

void RecordWriter::flush() {
  if (f_ && std::fflush(f_) != 0)
    throw_error(Code::kResourceExhausted, "Failed to flush ", path_, ": ", std::strerror(errno));
}

void RecordWriter::close() {
  if (!f_) return;
  int rc = std::fclose(f_);
  f_ = nullptr;
  if (rc != 0) throw_error(Code::kResourceExhausted, "Failed to close ", path_, ": ", std::strerror(errno));
}

std::vector<std::string> read_records(const std::string& path, bool allow_truncated_tail) {
  std::string file = read_file(path);
  std::vector<std::string> out;
  size_t pos = 0;
  auto corrupt = [&](const char* what) {
    throw_error(Code::kDataLoss, what, " in record at offset ", pos, " of ", path);
  };
  while (pos < file.size()) {
    if (file.size() - pos < 12) {
      if (allow_truncated_tail) break;
      corrupt("truncated record");
    }
    const char* p = file.data() + pos;
    uint64_t n;
    uint32_t len_crc, data_crc;
    std::memcpy(&n, p, 8);
    std::memcpy(&len_crc, p + 8, 4);
    if (crc32c_mask(crc32c(p, 8)) != len_crc) corrupt("corrupted length");
    if (n > file.size() - pos - 12 || file.size() - pos - 12 - n < 4) {
      if (allow_truncated_tail) break;
      corrupt("truncated record");
    }
    std::memcpy(&data_crc, p + 12 + n, 4);
    if (crc32c_mask(crc32c(p + 12, n)) != data_crc) corrupt("corrupted data");
    out.emplace_back(p + 12, n);
    pos += 16 + n;
  }
  return out;
}

}  // namespace ef::io
