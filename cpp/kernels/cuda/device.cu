// CUDA builds: the device count comes from the runtime; kernels are registered per op later.
#include <cuda_runtime.h>
#include <cublas_v2.h>

#include "core/device.h"

namespace ef {
int cuda_device_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) return 0;
  return n;
}
}  // namespace ef
