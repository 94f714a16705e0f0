// Devices: CPU always; CUDA when built with EAGERFLOW_CUDA and a GPU is present.
#pragma once
#include <string>
#include <vector>

namespace ef {

enum class DeviceType : int { kCPU = 0, kCUDA = 1 };
constexpr int kNumDeviceTypes = 2;

struct DeviceSpec {
  DeviceType type = DeviceType::kCPU;
  int index = 0;
  std::string name() const;  // "/job:localhost/replica:0/task:0/device:CPU:0"
};

// Parses "/cpu:0", "/device:GPU:1", "CPU", "/job:localhost/replica:0/task:0/device:CPU:0".
// Throws ValueError for malformed strings.
DeviceSpec parse_device(const std::string& s);

// Physical devices of a type ("CPU" always has one; "GPU" is empty without CUDA).
std::vector<std::string> list_physical_devices(DeviceType type);
int cuda_device_count();  // 0 in CPU-only builds

}  // namespace ef
