// args.h: kernel arguments from `--arg` specs, checked against the kernel's parameters.
//
//   buf:<bytes>   a zeroed device buffer (named "arg<i>", i from 0), passed by address
//   file:<path>   a buffer holding the file's bytes
//   i32:<v> u32:<v> i64:<v> u64:<v> f32:<v> f64:<v>   scalars
//   tmap:<buf:|file: spec>,dtype=..,dims=..,...   a CUtensorMap (tensor_map_spec.h): the
//                 buffer it describes, encoded into a 128-byte parameter
//
// A buffer goes to an 8-byte integer parameter, a scalar to a parameter of its size
// (and kind, for floats). Errors name the argument and list the kernel's parameters.
#pragma once

#include <functional>
#include <string>
#include <vector>

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

// A `tmap:` spec's 128 bytes for parameter `param`; allocates the tensor's buffer (its
// address in `buffer`). Errors say which requirement of cuTensorMapEncodeTiled failed.
Expected<KernelArg> tensor_map_argument(const std::string& spec, const ptx::Variable& param, const std::string& name,
                                        GlobalMemory& memory, const FileReader& reader, std::uint64_t& buffer);

Expected<Arguments> make_arguments(const ptx::Module& module, int kernel, const std::vector<std::string>& specs,
                                   GlobalMemory& memory, const FileReader& reader = read_file);

}  // namespace warpscope::emu
