// Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3") with TF's layout
// of key and 128-bit counter, so that the same seeds give TF's bits.
#pragma once
#include <array>
#include <cstdint>

namespace ef {

class PhiloxRandom {
 public:
  using ResultType = std::array<uint32_t, 4>;
  using Key = std::array<uint32_t, 2>;
  static constexpr int kResultElementCount = 4;

  PhiloxRandom() = default;
  // TF's PhiloxRandom(seed_lo, seed_hi): key = seed_lo, counter words 2 and 3 = seed_hi.
  PhiloxRandom(uint64_t seed_lo, uint64_t seed_hi)
      : counter_{0, 0, lo(seed_hi), hi(seed_hi)}, key_{lo(seed_lo), hi(seed_lo)} {}
  PhiloxRandom(ResultType counter, Key key) : counter_(counter), key_(key) {}
  // From the uint64 words of TF's V2 stateless ops and of tf.random.Generator's state.
  static PhiloxRandom from_counter_key(uint64_t c0, uint64_t c1, uint64_t key) {
    return PhiloxRandom({lo(c0), hi(c0), lo(c1), hi(c1)}, {lo(key), hi(key)});
  }

  const ResultType& counter() const { return counter_; }
  const Key& key() const { return key_; }

  // Adds `count` to the 128-bit counter (in units of 128-bit blocks).
  void skip(uint64_t count) {
    const uint32_t count_lo = lo(count);
    uint32_t count_hi = hi(count);
    counter_[0] += count_lo;
    if (counter_[0] < count_lo) ++count_hi;
    counter_[1] += count_hi;
    if (counter_[1] < count_hi) {
      if (++counter_[2] == 0) ++counter_[3];
    }
  }

  // Blocks for the next `n` counters into out[0, n); advances the counter by n. Runs of 16 whose
  // low counter word does not wrap are computed side by side (the compiler vectorizes them).
  void fill(ResultType* out, int64_t n) {
    constexpr int kBatch = 16;
    while (n > 0) {
      if (n >= kBatch && counter_[0] <= 0xffffffffu - kBatch) {
        batch<kBatch>(out);
        counter_[0] += kBatch;
        out += kBatch;
        n -= kBatch;
      } else {
        *out++ = (*this)();
        --n;
      }
    }
  }

  // The next 128 random bits; advances the counter by one.
  ResultType operator()() {
    ResultType c = counter_;
    Key k = key_;
    for (int r = 0; r < 10; ++r) {
      if (r > 0) {
        k[0] += kW0;
        k[1] += kW1;
      }
      const uint64_t p0 = static_cast<uint64_t>(kM0) * c[0];
      const uint64_t p1 = static_cast<uint64_t>(kM1) * c[2];
      c = {static_cast<uint32_t>(p1 >> 32) ^ c[1] ^ k[0], static_cast<uint32_t>(p1),
           static_cast<uint32_t>(p0 >> 32) ^ c[3] ^ k[1], static_cast<uint32_t>(p0)};
    }
    skip(1);
    return c;
  }

 private:
  // Blocks of counters counter_ + 0 .. N - 1 (no carry out of word 0). Each lane runs all ten
  // rounds on its own block, so GCC vectorizes the loop across blocks.
  template <int N>
  void batch(ResultType* out) const {
    uint32_t o0[N], o1[N], o2[N], o3[N];
    const uint32_t base = counter_[0], c1 = counter_[1], c2 = counter_[2], c3 = counter_[3];
    const uint32_t key0 = key_[0], key1 = key_[1];
    for (int i = 0; i < N; ++i) {
      uint32_t a0 = base + static_cast<uint32_t>(i), a1 = c1, a2 = c2, a3 = c3, k0 = key0, k1 = key1;
      for (int r = 0; r < 10; ++r) {
        const uint64_t p0 = uint64_t{0xD2511F53u} * a0;
        const uint64_t p1 = uint64_t{0xCD9E8D57u} * a2;
        a0 = static_cast<uint32_t>(p1 >> 32) ^ a1 ^ k0;
        a1 = static_cast<uint32_t>(p1);
        a2 = static_cast<uint32_t>(p0 >> 32) ^ a3 ^ k1;
        a3 = static_cast<uint32_t>(p0);
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
      }
      o0[i] = a0;
      o1[i] = a1;
      o2[i] = a2;
      o3[i] = a3;
    }
    for (int i = 0; i < N; ++i) out[i] = {o0[i], o1[i], o2[i], o3[i]};
  }

  static uint32_t lo(uint64_t x) { return static_cast<uint32_t>(x); }
  static uint32_t hi(uint64_t x) { return static_cast<uint32_t>(x >> 32); }
  static constexpr uint32_t kM0 = 0xD2511F53u, kM1 = 0xCD9E8D57u;
  static constexpr uint32_t kW0 = 0x9E3779B9u, kW1 = 0xBB67AE85u;
  ResultType counter_{};
  Key key_{};
};

// Hands out the 32-bit words of a PhiloxRandom one at a time (TF's SingleSampleAdapter).
class SingleSampleAdapter {
 public:
  explicit SingleSampleAdapter(PhiloxRandom* gen) : gen_(gen) {}
  uint32_t operator()() {
    if (used_ == PhiloxRandom::kResultElementCount) {
      block_ = (*gen_)();
      used_ = 0;
    }
    return block_[used_++];
  }

 private:
  PhiloxRandom* gen_;
  PhiloxRandom::ResultType block_{};
  int used_ = PhiloxRandom::kResultElementCount;
};

}  // namespace ef
