// Device names and parsing, in TF's spelling.
#include "core/device.h"

#include <algorithm>
#include <cctype>

#include "core/errors.h"

namespace ef {

std::string DeviceSpec::name() const {
  return str_cat("/job:localhost/replica:0/task:0/device:", type == DeviceType::kCPU ? "CPU" : "GPU", ":",
                 index);
}

DeviceSpec parse_device(const std::string& s) {
  DeviceSpec spec;
  std::string u = s;
  std::transform(u.begin(), u.end(), u.begin(), [](unsigned char c) { return std::toupper(c); });
  // Take the last "/"-separated component that names a device: "DEVICE:GPU:0", "CPU:0", "GPU".
  size_t pos = u.rfind('/');
  std::string last = pos == std::string::npos ? u : u.substr(pos + 1);
  if (last.rfind("DEVICE:", 0) == 0) last = last.substr(7);
  if (last.empty()) return spec;
  std::string kind = last.substr(0, last.find(':'));
  if (kind == "CPU") {
    spec.type = DeviceType::kCPU;
  } else if (kind == "GPU") {
    spec.type = DeviceType::kCUDA;
  } else if (kind.rfind("JOB", 0) == 0 || kind.rfind("REPLICA", 0) == 0 || kind.rfind("TASK", 0) == 0) {
    return spec;
  } else {
    throw ValueError(str_cat("Invalid device specification: '", s, "'"));
  }
  size_t colon = last.find(':');
  if (colon != std::string::npos) {
    std::string idx = last.substr(colon + 1);
    if (idx.empty() || !std::all_of(idx.begin(), idx.end(), ::isdigit))
      throw ValueError(str_cat("Invalid device specification: '", s, "'"));
    spec.index = std::stoi(idx);
  }
  return spec;
}

std::vector<std::string> list_physical_devices(DeviceType type) {
  std::vector<std::string> out;
  if (type == DeviceType::kCPU) {
    out.push_back("/physical_device:CPU:0");
  } else {
    for (int i = 0; i < cuda_device_count(); ++i) out.push_back(str_cat("/physical_device:GPU:", i));
  }
  return out;
}

}  // namespace ef
