// CPU-only builds: no CUDA devices. (A CUDA build compiles cuda/*.cu instead.)
#include "core/device.h"

namespace ef {
int cuda_device_count() { return 0; }
}  // namespace ef
