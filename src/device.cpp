#include "device.h"

#include <pthread.h>

#include <atomic>
#include <mutex>

#include "env.h"
#include "log.h"

namespace tileblas {

namespace {

// The kernels are built for these architectures and newer (CMake TILEBLAS_CUDA_ARCHS).
constexpr int kMinSmVersion = 80;

struct DeviceState {
  std::mutex mu;
  std::atomic<bool> probed{false};  // set last by probe(), under mu; read without it afterwards
  Device device;
  bool usable = false;
  std::string why_not;
  std::atomic<bool> disabled{false};
  std::atomic<bool> cuda_touched{false};  // this process initialised CUDA (a fork child must not)
  std::atomic<bool> forked_child{false};
};

DeviceState& state() {
  static DeviceState* s = new DeviceState;  // never destroyed: used from atexit-time BLAS calls
  return *s;
}

void on_fork_child() {
  DeviceState& s = state();
  if (s.cuda_touched.load()) s.forked_child.store(true);
}

}  // namespace

cudaError_t device_caps_of(int device, DeviceCaps* caps) {
  cudaDeviceProp prop;
  cudaError_t err = cudaGetDeviceProperties(&prop, device);
  if (err != cudaSuccess) return err;
  caps->sm_version = prop.major * 10 + prop.minor;
  caps->num_sms = prop.multiProcessorCount;
  caps->smem_per_block_optin = prop.sharedMemPerBlockOptin;
  caps->l2_bytes = size_t(prop.l2CacheSize);
  return cudaSuccess;
}

namespace {

// "12.4" for CUDA's 12040.
std::string cuda_version_text(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

}  // namespace

std::string cuda_failure_reason(cudaError_t err, int driver_version, int runtime_version) {
  // The CUDA runtime reports a driver it cannot load as an insufficient one: the driver's version
  // (0 when there is none) tells the two apart.
  if (driver_version == 0) return "no CUDA driver found (libcuda.so.1 cannot be loaded)";
  if (err == cudaErrorInsufficientDriver) {
    return "the CUDA driver supports CUDA " + cuda_version_text(driver_version) +
           ", older than the CUDA " + cuda_version_text(runtime_version) +
           " runtime tileblas was built with; a newer NVIDIA driver is needed";
  }
  if (err == cudaErrorNoDevice) return "no CUDA device";
  return std::string("no usable CUDA driver or device (") + cudaGetErrorString(err) + ")";
}

class DeviceAccess {
 public:
  static void probe(DeviceState& s) {
    static std::once_flag atfork_once;
    std::call_once(atfork_once, [] { pthread_atfork(nullptr, nullptr, on_fork_child); });
    if (config().mode == Mode::kCpu) {
      s.why_not = "TILEBLAS_MODE=cpu";
      return;
    }
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
      int driver_version = 0, runtime_version = 0;
      cudaDriverGetVersion(&driver_version);
      cudaRuntimeGetVersion(&runtime_version);
      s.why_not = cuda_failure_reason(err, driver_version, runtime_version);
      cudaGetLastError();
      return;
    }
    if (count == 0) {
      s.why_not = "no CUDA device";
      return;
    }
    const int index = config().device;
    if (index >= count) {
      s.why_not = "TILEBLAS_DEVICE=" + std::to_string(index) + " but only " +
                  std::to_string(count) + " device(s)";
      return;
    }
    DeviceCaps caps;
    if ((err = device_caps_of(index, &caps)) != cudaSuccess) {
      s.why_not = std::string("cudaGetDeviceProperties failed: ") + cudaGetErrorString(err);
      return;
    }
    if (caps.sm_version < kMinSmVersion) {
      s.why_not = "device sm_" + std::to_string(caps.sm_version) + " is older than sm_" +
                  std::to_string(kMinSmVersion) + ", which tileblas's kernels need";
      return;
    }
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, index);
    s.device.caps_ = caps;
    s.device.index_ = index;
    s.device.name_ = prop.name;
    s.usable = true;
    s.cuda_touched.store(true);  // from here on a fork() child must not use CUDA
  }
};

namespace {

// Probes once; after that only an atomic load (usable and why_not never change again).
void ensure_probed(DeviceState& s) {
  if (s.probed.load(std::memory_order_acquire)) return;
  std::lock_guard<std::mutex> lock(s.mu);
  if (s.probed.load(std::memory_order_relaxed)) return;
  DeviceAccess::probe(s);
  // Forcing the GPU is a request the user will look for on stderr when it cannot be met.
  if (!s.usable && config().mode == Mode::kGpu) {
    warn_once("mode-gpu", "TILEBLAS_MODE=gpu, but no GPU can be used: " + s.why_not +
                              "; every call runs on the CPU BLAS");
  }
  s.probed.store(true, std::memory_order_release);
}

}  // namespace

Device* Device::available() {
  DeviceState& s = state();
  if (s.forked_child.load()) {
    warn_once("fork", "CUDA cannot be used in a child process after fork(); using the CPU BLAS");
    return nullptr;
  }
  if (s.disabled.load()) return nullptr;
  ensure_probed(s);
  return s.usable ? &s.device : nullptr;
}

bool Device::make_current() {
  // The program may have made another device current since our last call: check (a thread-local
  // read in the runtime) rather than set every time.
  int current = -1;
  if (cudaGetDevice(&current) == cudaSuccess && current == index_) return true;
  if (cudaSetDevice(index_) != cudaSuccess) {
    report_failure("cudaSetDevice", cudaGetLastError());
    return false;
  }
  return true;
}

CurrentDevice::CurrentDevice(Device& device) {
  int current = -1;
  if (cudaGetDevice(&current) == cudaSuccess && current != device.index()) previous_ = current;
  ok_ = device.make_current();
  if (!ok_) previous_ = -1;
}

CurrentDevice::~CurrentDevice() {
  if (previous_ >= 0) cudaSetDevice(previous_);
}

Device* Device::get() {
  Device* d = available();
  return d && d->make_current() ? d : nullptr;
}

const std::string& Device::unavailable_reason() {
  static const std::string* const forked = new std::string("child process after fork()");
  static const std::string* const disabled = new std::string("disabled after a CUDA error");
  static const std::string* const none = new std::string();
  DeviceState& s = state();
  if (s.forked_child.load()) return *forked;
  if (s.disabled.load()) return *disabled;
  ensure_probed(s);
  return s.usable ? *none : s.why_not;
}

void Device::report_failure(const char* what, cudaError_t err) {
  cudaGetLastError();  // clear a non-sticky error so later calls are not blamed for it
  if (err == cudaErrorMemoryAllocation) {
    warn_once("oom", std::string(what) + ": out of GPU memory; such calls run on the CPU BLAS");
    return;
  }
  state().disabled.store(true);
  warn_once("cuda-error", std::string(what) + " failed (" + cudaGetErrorString(err) +
                              "); the GPU is disabled and every call runs on the CPU BLAS");
}

cudaStream_t Device::stream() { return cudaStreamPerThread; }

}  // namespace tileblas
