// sass_tools.h: running ptxas and nvdisasm to see the machine code a PTX kernel becomes.
//
// nvdisasm is looked up on PATH, then in the CUDA toolkit, then in Python's site-packages
// (the PyPI package nvidia-cuda-nvdisasm, which `make deps` installs).
#pragma once

#include <string>

#include "support/expected.h"

namespace warpscope::cli {

// The listing of `nvdisasm -c -gi` for `ptx_text` compiled by `ptxas -arch=ARCH -lineinfo`,
// or an error saying which tool is missing or failed.
Expected<std::string> disassemble_ptx(const std::string& ptx_text, const std::string& arch);

}  // namespace warpscope::cli
