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

// One kernel parameter's storage; kernelParams points at `value`.
struct ParamSlot {
  std::vector<unsigned char> value;
  std::vector<CUdeviceptr> buffers;
};

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
      addresses.push_back(uint64_t(buffer));
    }
    slot.value = ParamBytes(arg, addresses);
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
    for (size_t i = 0; i < spec.args.size(); ++i)
      for (const BufferNeed& need : BuffersOf(spec.args[i]))
        if (need.recipe->contents == BufferRecipe::Contents::File && ReadFile(need.recipe->path).empty())
          throw Error("--arg '" + spec.args[i].text + "': the file is empty");
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
  auto launch = [&] {
    CHECK(cuLaunchKernel(function, spec.grid.x, spec.grid.y, spec.grid.z, spec.block.x, spec.block.y,
                         spec.block.z, spec.dyn_smem, nullptr, params.empty() ? nullptr : params.data(),
                         nullptr));
  };
  launch();
  CHECK(cuCtxSynchronize());
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
  CHECK(cuDevicePrimaryCtxRelease(device));
  return 0;
}

}  // namespace
}  // namespace ptxlaunch

int main(int argc, char** argv) {
  try {
    std::vector<std::string> args(argv + 1, argv + argc);
    return ptxlaunch::Run(ptxlaunch::ParseCommandLine(args));
  } catch (const ptxlaunch::Error& e) {
    std::fprintf(stderr, "ptxlaunch: error: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ptxlaunch: error: %s\n", e.what());
    return 1;
  }
}
