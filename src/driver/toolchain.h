// toolchain.h: running ptxas and nvdisasm to see the machine code a PTX kernel becomes.
//
// nvdisasm is looked up on PATH, then in the CUDA toolkit, then in Python's site-packages
// (the PyPI package nvidia-cuda-nvdisasm, which `make deps` installs).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "support/expected.h"

namespace warpscope::driver {

// The PTX of a CUDA source file: `nvcc -arch=sm_90 -lineinfo -ptx [EXTRA...] FILE` (a .cuh
// with `-x cu`), or an error with nvcc's command line and its own messages (or saying that
// nvcc is not on PATH).
Expected<std::string> compile_cuda(const std::string& cu_path, const std::vector<std::string>& extra = {});

// The same for CUDA source held in memory (written to a temporary `name` first; relative -I
// folders in `extra` are taken from the current folder, as for a file).
Expected<std::string> compile_cuda_text(const std::string& source, const std::string& name,
                                        const std::vector<std::string>& extra = {});

// The listing of `nvdisasm -c -gi` for `ptx_text` compiled by `ptxas -arch=ARCH -lineinfo`,
// or an error saying which tool is missing or failed.
Expected<std::string> disassemble_ptx(const std::string& ptx_text, const std::string& arch);

// The listing of `nvdisasm -c -gi` for a cubin held in memory (Triton's, which its own
// ptxas made), run with `nvdisasm` (a path; empty: looked up as above). Cached by the
// cubin's bytes like the PTX listings.
Expected<std::string> disassemble_cubin(const std::string& cubin, const std::string& nvdisasm = "");

// Registers per thread of entry `kernel` from `ptxas -v` output:
//   ptxas info    : Compiling entry function 'transpose_naive_f32' for 'sm_90'
//   ptxas info    : Function properties for transpose_naive_f32
//   ptxas info    : Used 20 registers, used 0 barriers
// Empty when the kernel or its "Used N registers" line is missing.
std::optional<int> parse_ptxas_registers(const std::string& output, const std::string& kernel);

// Runs `ptxas -v -arch=ARCH` on the PTX (cached like the listings) and parses the count.
Expected<int> ptxas_registers(const std::string& ptx_text, const std::string& arch, const std::string& kernel);

}  // namespace warpscope::driver
