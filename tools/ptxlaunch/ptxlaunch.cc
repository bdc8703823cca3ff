// ptxlaunch: loads a PTX file with the CUDA driver API (JIT, with line info so
// Nsight Compute can attribute counters to source lines), builds the kernel's
// arguments from a launches.txt-style command line, launches and synchronizes.
// Every driver call is checked; failures print the call, the error and exit 1.
// See launch_spec.h for the command line.
#include <cuda.h>

#include <cerrno>
#include <chrono>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "launch_spec.h"
#include "ptx_entries.h"

namespace ptxlaunch {
namespace {

void Check(CUresult result, const char* call) {
  if (result == CUDA_SUCCESS) return;
  const char* name = nullptr;
  const char* text = nullptr;
  cuGetErrorName(result, &name);
  cuGetErrorString(result, &text);
  throw Error(std::string(call) + " failed: " + (name ? name : "?") + " (" + std::to_string(int(result)) +
              "): " + (text ? text : "unknown error"));
}
#define CHECK(call) Check((call), #call)

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot open '" + path + "': " + std::strerror(errno));
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// One kernel parameter's storage; kernelParams points at `value`. Its buffers, with their
// sizes (--dump writes them back).
struct ParamSlot {
  std::vector<unsigned char> value;
  std::vector<CUdeviceptr> buffers;
  std::vector<size_t> sizes;
};

// A tmap: argument's fields (warpscope's spec reader), checked as cuTensorMapEncodeTiled would.
warpscope::tmap::TensorMapSpec TensorMapOf(const ArgSpec& arg) {
  warpscope::tmap::TensorMapSpec spec;
  std::string why;
  if (!warpscope::tmap::parse_tensor_map_spec(arg.text, spec, why)) throw Error("--arg '" + arg.text + "': " + why);
  if (!warpscope::tmap::check_tensor_map(spec.fields, why))
    throw Error("--arg '" + arg.text + "': cuTensorMapEncodeTiled would fail: " + why);
  return spec;
}

// The tensor map of a tmap: argument over `buffer`, encoded by the driver.
CUtensorMap EncodeTensorMap(const ArgSpec& arg, CUdeviceptr buffer) {
  const warpscope::tmap::TensorMapSpec spec = TensorMapOf(arg);
  const warpscope::tmap::TensorMapFields& f = spec.fields;
  cuuint64_t dims[5], strides[4];
  cuuint32_t box[5], elem[5];
  for (int i = 0; i < f.rank; ++i) {
    dims[i] = f.dims[i];
    box[i] = f.box[i];
    elem[i] = f.elem_strides[i];
    if (i + 1 < f.rank) strides[i] = f.strides[i];
  }
  CUtensorMap map;
  CUresult r = cuTensorMapEncodeTiled(&map, static_cast<CUtensorMapDataType>(f.dtype), static_cast<cuuint32_t>(f.rank),
                                      reinterpret_cast<void*>(buffer), dims, strides, box, elem,
                                      static_cast<CUtensorMapInterleave>(f.interleave),
                                      static_cast<CUtensorMapSwizzle>(f.swizzle), CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                      static_cast<CUtensorMapFloatOOBfill>(f.fill));
  try {
    Check(r, "cuTensorMapEncodeTiled");
  } catch (const Error& e) {
    throw Error(std::string(e.what()) + " (--arg '" + arg.text + "')");
  }
  return map;
}

CUmodule LoadModule(const std::string& ptx_path, const std::string& ptx_text) {
  static char error_log[16384], info_log[16384];
  CUjit_option options[] = {CU_JIT_GENERATE_LINE_INFO, CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, CU_JIT_INFO_LOG_BUFFER,
                            CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
  void* values[] = {(void*)(uintptr_t)1, error_log, (void*)(uintptr_t)sizeof(error_log), info_log,
                    (void*)(uintptr_t)sizeof(info_log)};
  CUmodule module = nullptr;
  CUresult result = cuModuleLoadDataEx(&module, ptx_text.c_str(), 5, options, values);
  if (result != CUDA_SUCCESS) {
    std::string log = error_log[0] ? std::string("\nJIT log:\n") + error_log : "";
    try {
      Check(result, "cuModuleLoadDataEx");
    } catch (const Error& e) {
      throw Error(std::string(e.what()) + " (loading " + ptx_path + ")" + log);
    }
  }
  if (info_log[0]) std::fprintf(stderr, "ptxlaunch: JIT info: %s\n", info_log);
  return module;
}

void FillArguments(const LaunchSpec& spec, std::vector<ParamSlot>& slots) {
  for (size_t i = 0; i < spec.args.size(); ++i) {
    const ArgSpec& arg = spec.args[i];
    ParamSlot& slot = slots[i];
    std::vector<uint64_t> addresses;
    for (const BufferNeed& need : BuffersOf(arg)) {
      std::vector<unsigned char> data;
      try {
        data = BufferBytes(*need.recipe, spec.seed, i, need.field, ReadFile);
      } catch (const Error& e) {
        throw Error("--arg '" + arg.text + "': " + e.what());
      }
      CUdeviceptr buffer = 0;
      CHECK(cuMemAlloc(&buffer, data.size()));
      CHECK(cuMemcpyHtoD(buffer, data.data(), data.size()));
      slot.buffers.push_back(buffer);
      slot.sizes.push_back(data.size());
      addresses.push_back(uint64_t(buffer));
    }
    if (arg.form == ArgSpec::Form::Extension) {  // tmap: the driver's CUtensorMap over the buffer
      CUtensorMap map = EncodeTensorMap(arg, slot.buffers.at(0));
      slot.value.assign(reinterpret_cast<const unsigned char*>(&map), reinterpret_cast<const unsigned char*>(&map) + sizeof map);
      continue;
    }
    slot.value = ParamBytes(arg, addresses);
  }
}

// Each buffer argument's bytes after the launch, as DIR/arg<i>.bin (probe kernels write
// the values they read there: special registers, where the reserved shared memory is).
void DumpBuffers(const LaunchSpec& spec, const std::vector<ParamSlot>& slots) {
  for (size_t i = 0; i < spec.args.size(); ++i) {
    const ParamSlot& slot = slots[i];
    for (size_t k = 0; k < slot.buffers.size(); ++k) {
      std::vector<unsigned char> data(slot.sizes[k]);
      CHECK(cuMemcpyDtoH(data.data(), slot.buffers[k], data.size()));
      // arg<i>.bin, or arg<i>.<k>.bin for the buffers of a struct's pointer fields
      const std::string path = spec.dump_dir + "/arg" + std::to_string(i) +
                               (slot.buffers.size() > 1 ? "." + std::to_string(k) : "") + ".bin";
      std::FILE* f = std::fopen(path.c_str(), "wb");
      if (f == nullptr) throw Error("--dump: cannot write '" + path + "'");
      const bool ok = std::fwrite(data.data(), 1, data.size(), f) == data.size();
      if (std::fclose(f) != 0 || !ok) throw Error("--dump: cannot write '" + path + "'");
      std::fprintf(stderr, "ptxlaunch: wrote %s (%zu bytes)\n", path.c_str(), data.size());
    }
  }
}

void CheckLaunchLimits(CUfunction function, const LaunchSpec& spec) {
  int max_threads = 0, static_smem = 0;
  CHECK(cuFuncGetAttribute(&max_threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, function));
  CHECK(cuFuncGetAttribute(&static_smem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, function));
  unsigned long long threads = 1ull * spec.block.x * spec.block.y * spec.block.z;
  if (threads > (unsigned long long)max_threads)
    throw Error("block of " + std::to_string(threads) + " threads exceeds this kernel's limit of " +
                std::to_string(max_threads));
  std::fprintf(stderr, "ptxlaunch: static shared memory %d bytes, dynamic %u bytes\n", static_smem,
               spec.dyn_smem);
  if (spec.dyn_smem > 48 * 1024)
    CHECK(cuFuncSetAttribute(function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, int(spec.dyn_smem)));
}

// Loads, launches (1 + --repeat - 1 timed) and unloads one kernel in the current context.
void LaunchOne(const LaunchSpec& spec, const PtxEntry& entry, const std::string& ptx_text, const char* device_name);

int Run(const LaunchSpec& spec) {
  std::string ptx_text = ReadFile(spec.ptx_path);
  std::vector<PtxEntry> entries = FindEntries(ptx_text);
  if (spec.list_kernels) {
    for (const PtxEntry& e : entries) std::printf("%s\n", DescribeEntry(e).c_str());
    return 0;
  }
  const PtxEntry& entry = ResolveKernel(entries, spec.kernel);
  CheckArguments(entry, spec.args);
  if (spec.dry_run) {
    for (size_t i = 0; i < spec.args.size(); ++i) {
      for (const BufferNeed& need : BuffersOf(spec.args[i]))
        if (need.recipe->contents == BufferRecipe::Contents::File && ReadFile(need.recipe->path).empty())
          throw Error("--arg '" + spec.args[i].text + "': the file is empty");
      if (spec.args[i].form == ArgSpec::Form::Extension) TensorMapOf(spec.args[i]);  // throws when it cannot be made
    }
    std::printf("ptxlaunch: dry run ok: %s\n", DescribeEntry(entry).c_str());
    return 0;
  }

  CHECK(cuInit(0));
  CUdevice device;
  CHECK(cuDeviceGet(&device, spec.device));
  char device_name[256] = {};
  CHECK(cuDeviceGetName(device_name, sizeof(device_name), device));
  CUcontext context;
  CHECK(cuDevicePrimaryCtxRetain(&context, device));
  CHECK(cuCtxSetCurrent(context));
  LaunchOne(spec, entry, ptx_text, device_name);
  CHECK(cuDevicePrimaryCtxRelease(device));
  return 0;
}

void LaunchOne(const LaunchSpec& spec, const PtxEntry& entry, const std::string& ptx_text, const char* device_name) {
  CUmodule module = LoadModule(spec.ptx_path, ptx_text);
  CUfunction function;
  CHECK(cuModuleGetFunction(&function, module, entry.name.c_str()));
  CheckLaunchLimits(function, spec);

  std::vector<ParamSlot> slots(spec.args.size());
  FillArguments(spec, slots);
  std::vector<void*> params;
  for (ParamSlot& slot : slots) params.push_back(slot.value.data());

  // One launch first (module load and first-touch out of the way), then each of the
  // --repeat launches timed with CUDA events; median, min and max per launch.
  // With --cluster, cuLaunchKernelEx with the cluster dimension attribute (more than 8
  // blocks per cluster needs the non-portable size allowed first).
  CUlaunchAttribute attributes[2]{};
  unsigned num_attributes = 0;
  if (spec.cluster_set) {
    CUlaunchAttribute& a = attributes[num_attributes++];
    a.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    a.value.clusterDim.x = spec.cluster.x;
    a.value.clusterDim.y = spec.cluster.y;
    a.value.clusterDim.z = spec.cluster.z;
    if (1ull * spec.cluster.x * spec.cluster.y * spec.cluster.z > 8)
      CHECK(cuFuncSetAttribute(function, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1));
  }
  // A cooperative launch: every block resident at once, %envreg1/2 the grid workspace.
  if (spec.cooperative || entry.reads_grid_workspace) {
    CUlaunchAttribute& a = attributes[num_attributes++];
    a.id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
    a.value.cooperative = 1;
  }
  CUlaunchConfig config{};
  config.gridDimX = spec.grid.x;
  config.gridDimY = spec.grid.y;
  config.gridDimZ = spec.grid.z;
  config.blockDimX = spec.block.x;
  config.blockDimY = spec.block.y;
  config.blockDimZ = spec.block.z;
  config.sharedMemBytes = spec.dyn_smem;
  config.attrs = attributes;
  config.numAttrs = num_attributes;
  auto launch = [&] {
    if (num_attributes > 0) {
      CHECK(cuLaunchKernelEx(&config, function, params.empty() ? nullptr : params.data(), nullptr));
    } else {
      CHECK(cuLaunchKernel(function, spec.grid.x, spec.grid.y, spec.grid.z, spec.block.x, spec.block.y,
                           spec.block.z, spec.dyn_smem, nullptr, params.empty() ? nullptr : params.data(),
                           nullptr));
    }
  };
  launch();
  CHECK(cuCtxSynchronize());
  if (!spec.dump_dir.empty()) DumpBuffers(spec, slots);
  CUevent begin, end;
  CHECK(cuEventCreate(&begin, CU_EVENT_DEFAULT));
  CHECK(cuEventCreate(&end, CU_EVENT_DEFAULT));
  std::vector<float> times;
  for (unsigned r = 1; r < spec.repeat; ++r) {
    CHECK(cuEventRecord(begin, nullptr));
    launch();
    CHECK(cuEventRecord(end, nullptr));
    CHECK(cuEventSynchronize(end));
    float ms = 0;
    CHECK(cuEventElapsedTime(&ms, begin, end));
    times.push_back(ms);
  }
  CHECK(cuEventDestroy(begin));
  CHECK(cuEventDestroy(end));
  std::sort(times.begin(), times.end());
  std::printf("ptxlaunch: %s on %s: grid (%u,%u,%u) block (%u,%u,%u) dyn-smem %u, %u launch(es) ok",
              entry.name.c_str(), device_name, spec.grid.x, spec.grid.y, spec.grid.z, spec.block.x,
              spec.block.y, spec.block.z, spec.dyn_smem, spec.repeat);
  if (!times.empty())
    std::printf(", timed %zu: median %.4f ms min %.4f max %.4f", times.size(), times[times.size() / 2], times.front(),
                times.back());
  std::printf("\n");

  for (ParamSlot& slot : slots)
    for (CUdeviceptr buffer : slot.buffers) CHECK(cuMemFree(buffer));
  CHECK(cuModuleUnload(module));
}

// --batch FILE: one launch per line ("NAME words...", the launches.txt format, paths as
// given), all in one process and one context, in order, so that a profiler run over the
// process sees kernel i as the i-th line. A line that cannot be parsed or launched is
// reported and skipped; an error that leaves the context unusable (a kernel fault) stops
// the batch, and the exit status is then 1.
int RunBatch(const std::string& path, int device_index) {
  std::ifstream in(path);
  if (!in) throw Error("cannot open '" + path + "'");
  CHECK(cuInit(0));
  CUdevice device;
  CHECK(cuDeviceGet(&device, device_index));
  char device_name[256] = {};
  CHECK(cuDeviceGetName(device_name, sizeof(device_name), device));
  CUcontext context;
  CHECK(cuDevicePrimaryCtxRetain(&context, device));
  CHECK(cuCtxSetCurrent(context));
  int failed = 0, done = 0;
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string name;
    std::vector<std::string> argv;
    if (!(words >> name) || name[0] == '#') continue;
    for (std::string w; words >> w;) argv.push_back(w);
    try {
      LaunchSpec spec = ParseCommandLine(argv);
      std::string ptx_text = ReadFile(spec.ptx_path);
      const std::vector<PtxEntry> entries = FindEntries(ptx_text);
      const PtxEntry& entry = ResolveKernel(entries, spec.kernel);
      CheckArguments(entry, spec.args);
      LaunchOne(spec, entry, ptx_text, device_name);
      std::printf("ptxlaunch: batch %s ok\n", name.c_str());
      ++done;
    } catch (const Error& e) {
      std::printf("ptxlaunch: batch %s failed: %s\n", name.c_str(), e.what());
      ++failed;
      if (cuCtxSynchronize() != CUDA_SUCCESS) {
        std::printf("ptxlaunch: batch stopped after %s: the context is no longer usable\n", name.c_str());
        return 1;
      }
    }
    std::fflush(stdout);
  }
  std::printf("ptxlaunch: batch done: %d launched, %d failed\n", done, failed);
  CHECK(cuDevicePrimaryCtxRelease(device));
  return failed ? 1 : 0;
}

}  // namespace
}  // namespace ptxlaunch

int main(int argc, char** argv) {
  try {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.size() == 2 && args[0] == "--batch") return ptxlaunch::RunBatch(args[1], 0);
    return ptxlaunch::Run(ptxlaunch::ParseCommandLine(args));
  } catch (const ptxlaunch::Error& e) {
    std::fprintf(stderr, "ptxlaunch: error: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ptxlaunch: error: %s\n", e.what());
    return 1;
  }
}
