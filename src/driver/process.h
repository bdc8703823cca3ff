// process.h: the one place warpscope starts other programs (nvcc, ptxas, nvdisasm, ncu,
// Python for Triton): quoting a word for the shell, finding an executable on PATH, and
// running a command line with its output captured.
#pragma once

#include <string>

#include "support/expected.h"

namespace warpscope::driver {

// The word as the shell reads it back: unchanged when it holds only safe characters,
// otherwise single-quoted.
std::string shell_quote(const std::string& word);

// The path of an executable file `program` in a PATH folder, or "" when there is none.
std::string find_on_path(const std::string& program);

// True if `path` is a regular file this process may execute.
bool is_executable(const std::string& path);

// Runs a shell command line and returns what it printed (standard output and error
// together), or an error holding the command and that output when it exits non-zero.
Expected<std::string> capture(const std::string& command);

// Runs a shell command line; its exit status (-1 when it could not be started).
int run_shell(const std::string& command);

}  // namespace warpscope::driver
