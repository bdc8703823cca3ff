// The launch described on a ptxlaunch command line (the launches.txt syntax).
//
//   ptxlaunch FILE.ptx --kernel K --grid X[,Y[,Z]] --block X[,Y[,Z]]
//             [--dyn-smem BYTES] [--arg SPEC]... [--repeat N] [--seed S] [--device D]
//             [--dry-run]   (check the launch against the PTX, touch no GPU)
//             [--dump DIR]  (after the first launch, write each buffer argument's bytes to
//                            DIR/arg<i>.bin, i from 0 in parameter order)
//   ptxlaunch FILE.ptx --list   (print the PTX's kernels and parameter types)
//
// SPEC, in the kernel's parameter order: the grammar warpscope's --arg takes, from the one
// source both tools compile (src/emu/arg_spec.h): scalars i8 u8 i16 u16 i32 u32 i64 u64 f16
// bf16 f32 f64 bool, buffers buf: file: fill: iota: rand:, by-value bytes: and struct:.
// The one difference: buf:<size> is filled with deterministic pseudo-random bytes here
// (splitmix64 of --seed and the argument's index) and zeroed by warpscope; buf:<size>:zero
// and buf:<size>:random mean the same bytes in both.
//   tmap:<buffer>,dtype=..,dims=..,strides=..,box=..,swizzle=..[,...]  a CUtensorMap that
//   cuTensorMapEncodeTiled makes for that buffer (fields: src/emu/tensor_map_spec.h)
//   --cluster X[,Y[,Z]]  launch with thread block clusters (cuLaunchKernelEx)
//   --cooperative        a cooperative launch (cuLaunchKernelEx with the cooperative attribute;
//                        implied for a kernel that reads %envreg1/2, cooperative_groups::this_grid())
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "emu/arg_spec.h"
#include "emu/tensor_map_spec.h"

namespace ptxlaunch {

// The one error type: thrown anywhere, caught once in main and printed.
struct Error : std::runtime_error {
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

using warpscope::emu::ArgSpec;
using warpscope::emu::BufferRecipe;

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
  bool cooperative = false;  // --cooperative
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

// The buffers an argument needs, in order (itself, or a struct's pointer fields): each with
// the struct field it fills (-1: the argument itself).
struct BufferNeed {
  const BufferRecipe* recipe;
  int field;
};
std::vector<BufferNeed> BuffersOf(const ArgSpec& arg);

// A buffer's bytes as the launch fills it: argument `index` of a launch with --seed `seed`.
using FileReader = std::function<std::string(const std::string& path)>;
std::vector<unsigned char> BufferBytes(const BufferRecipe& recipe, uint64_t seed, size_t index, int field,
                                       const FileReader& read_file);

// The argument's bytes in the parameter buffer, given the device addresses of its buffers
// (BuffersOf's order).
std::vector<unsigned char> ParamBytes(const ArgSpec& arg, const std::vector<uint64_t>& addresses);

extern const char* const kUsage;

}  // namespace ptxlaunch
