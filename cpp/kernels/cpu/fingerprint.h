// String hashes of TF's hash-bucket ops: Fingerprint64 (FarmHash's Fingerprint64, the "na" Hash64
// without a seed) and SipHash-2-4 with a 128-bit key (TF's StrongKeyedHash).
#pragma once
#include <cstddef>
#include <cstdint>

namespace ef {

uint64_t fingerprint64(const char* s, size_t len);
uint64_t siphash24(const uint64_t key[2], const char* s, size_t len);

}  // namespace ef
