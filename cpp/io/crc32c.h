// CRC-32C (Castagnoli), the checksum of TF's tables, tensor bundles and TFRecords.
#pragma once
#include <cstddef>
#include <cstdint>

namespace ef::io {

// The CRC of data appended to a stream whose CRC so far is `crc` (0 for an empty stream).
uint32_t crc32c_extend(uint32_t crc, const void* data, size_t n);
inline uint32_t crc32c(const void* data, size_t n) { return crc32c_extend(0, data, n); }

// TF stores "masked" CRCs so that a CRC of bytes holding CRCs is not degenerate.
inline uint32_t crc32c_mask(uint32_t crc) { return ((crc >> 15) | (crc << 17)) + 0xa282ead8u; }
inline uint32_t crc32c_unmask(uint32_t masked) {
  uint32_t rot = masked - 0xa282ead8u;
  return (rot >> 17) | (rot << 15);
}

}  // namespace ef::io
