// args.h: kernel arguments from `--arg` specs (the grammar: arg_spec.h), checked against the
// kernel's parameters, and the buffers they name, allocated and filled.
//
//   --arg buf:1M --arg rand:65536:u8:7 --arg i32:512 --arg struct:i32:4,f32:0.5,buf:1K
//
// A buffer goes to an 8-byte integer (pointer) parameter, a scalar to a parameter of its
// size and kind (an integer to .u/.s/.b, a float to .f/.b; any of them to a by-value
// aggregate `.b8 p[N]` of its size), bytes: and struct: to a parameter of exactly their size,
// tmap: to a 128-byte `__grid_constant__ CUtensorMap`.
// Buffers are named "arg<i>" (i from 0; a struct's pointer fields "arg<i>.<field>"), and
// all of one launch hold at most GlobalMemory::kMaxTotalBytes, checked before allocating.
// Errors name the argument and list the kernel's parameters; they are usage errors except
// for a file that cannot be read.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "emu/arg_spec.h"
#include "emu/launch.h"
#include "ptx/ir.h"
#include "support/expected.h"

namespace warpscope::emu {

// Reads a whole file (the CLI may pass its own, tests an in-memory one).
using FileReader = std::function<Expected<std::vector<std::uint8_t>>(const std::string& path)>;
Expected<std::vector<std::uint8_t>> read_file(const std::string& path);

struct Arguments {
  std::vector<KernelArg> values;
  std::vector<std::uint64_t> buffers;  // per argument: the buffer's address, or 0 for scalars
};

// The name of the buffer argument `index` (0-based) gets: "arg1". Reports show addresses in it
// as "arg1+0x1f40" (or by the parameter's name, when the .cu is at hand).
std::string buffer_name(std::size_t index);

// Checks every spec against the kernel's parameters and the buffer budget, allocates and fills
// the buffers.
Expected<Arguments> make_arguments(const ptx::Module& module, int kernel, const std::vector<std::string>& specs,
                                   GlobalMemory& memory, const FileReader& reader = read_file);

// The same checks, allocating nothing (files are read to learn their sizes).
Status check_arguments(const ptx::Module& module, int kernel, const std::vector<std::string>& specs,
                       const FileReader& reader = read_file);

// A `tmap:` argument's 128 bytes (a CUtensorMap, tensor_map_spec.h) over the tensor's buffer
// at `address` of `size` bytes, for parameter `param`. Errors say which requirement of
// cuTensorMapEncodeTiled failed, or that the tensor does not fit its buffer.
Expected<KernelArg> tensor_map_argument(const std::string& spec, const ptx::Variable& param, std::uint64_t address,
                                        std::uint64_t size);

}  // namespace warpscope::emu
