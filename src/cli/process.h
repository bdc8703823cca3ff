// process.h: what the CLI needs to start other programs (nvcc, ptxas, nvdisasm, ncu):
// quoting a word for the shell and finding an executable on PATH.
#pragma once

#include <string>

namespace warpscope::cli {

// The word as the shell reads it back: unchanged when it holds only safe characters,
// otherwise single-quoted.
std::string shell_quote(const std::string& word);

// The path of an executable file `program` in a PATH folder, or "" when there is none.
std::string find_on_path(const std::string& program);

// True if `path` is a regular file this process may execute.
bool is_executable(const std::string& path);

}  // namespace warpscope::cli
