// Broadcast strides.
#include "kernels/cpu/broadcast.h"

namespace ef {

std::vector<int64_t> broadcast_strides(const Shape& in, const Shape& out) {
  const int r = out.rank(), ri = in.rank();
  std::vector<int64_t> s(r, 0);
  int64_t stride = 1;
  for (int i = ri - 1; i >= 0; --i) {
    int o = r - ri + i;
    s[o] = in[i] == 1 && out[o] != 1 ? 0 : stride;
    stride *= in[i];
  }
  return s;
}

}  // namespace ef
