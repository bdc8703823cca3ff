// The launch described on a ptxlaunch command line (the launches.txt syntax).
//
//   ptxlaunch FILE.ptx --kernel K --grid X[,Y[,Z]] --block X[,Y[,Z]]
//             [--dyn-smem BYTES] [--arg SPEC]... [--repeat N] [--seed S] [--device D]
//             [--dry-run]   (check the launch against the PTX, touch no GPU)
//             [--dump DIR]  (after the first launch, write each buffer argument's bytes to
//                            DIR/arg<i>.bin, i from 0 in parameter order)
//   ptxlaunch FILE.ptx --list   (print the PTX's kernels and parameter types)
//
// SPEC, in the kernel's parameter order:
//   buf:<bytes>          device buffer, filled with deterministic pseudo-random bytes
//   buf:<bytes>:zero     device buffer, zeroed
//   buf:<bytes>:random   same as buf:<bytes>
//   file:<path>          device buffer holding that file's bytes
//   i32:<v> u32:<v> i64:<v> u64:<v> f32:<v> f64:<v>   a scalar (integers: decimal or 0x..)
//   tmap:<buf:|file: spec>,dtype=..,dims=..,strides=..,box=..,swizzle=..[,...]
//                        a CUtensorMap made by cuTensorMapEncodeTiled for that buffer (the
//                        syntax is warpscope's src/emu/tensor_map_spec.h, shared with it)
//   --cluster X[,Y[,Z]]  launch with thread block clusters (cuLaunchKernelEx)
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "emu/tensor_map_spec.h"

namespace ptxlaunch {

// The one error type: thrown anywhere, caught once in main and printed.
struct Error : std::runtime_error {
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

enum class ArgKind { Buffer, File, I32, U32, I64, U64, F32, F64, TensorMap };
enum class BufferFill { Random, Zero };

struct ArgSpec {
  std::string text;  // as written, for messages
  ArgKind kind = ArgKind::I32;
  uint64_t bytes = 0;        // Buffer
  BufferFill fill = BufferFill::Random;
  std::string path;          // File
  int64_t int_value = 0;     // I32, I64
  uint64_t uint_value = 0;   // U32, U64
  double float_value = 0.0;  // F32, F64
  // TensorMap: the map, and its tensor's buffer (kind Buffer or File, in the fields above).
  warpscope::tmap::TensorMapSpec tmap;
  ArgKind tensor_kind = ArgKind::Buffer;
};

struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
};

struct LaunchSpec {
  std::string ptx_path;
  std::string kernel;
  Dim3 grid, block;
  bool grid_set = false, block_set = false;
  unsigned dyn_smem = 0;
  Dim3 cluster;             // --cluster: blocks per cluster
  bool cluster_set = false;
  std::vector<ArgSpec> args;
  unsigned repeat = 1;
  uint64_t seed = 1;
  int device = 0;
  bool dry_run = false;       // --dry-run: check everything that needs no GPU, launch nothing
  bool list_kernels = false;  // --list: print the PTX's kernels and parameters, launch nothing
  std::string dump_dir;       // --dump DIR: buffers after the first launch, DIR/arg<i>.bin
};

ArgSpec ParseArgSpec(const std::string& text);
Dim3 ParseDim3(const std::string& option, const std::string& text);
LaunchSpec ParseCommandLine(const std::vector<std::string>& argv);
const char* ArgKindName(ArgKind kind);
// Bytes the value of this argument occupies as a kernel parameter (8 for buffers).
unsigned ArgParamSize(ArgKind kind);

extern const char* const kUsage;

}  // namespace ptxlaunch
