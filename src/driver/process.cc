// process.cc: shell quoting and PATH lookup (see process.h).
#include "driver/process.h"

#include <unistd.h>

#include <array>
#include <cstdio>

#include <cstdlib>
#include <filesystem>
#include <sstream>

namespace warpscope::driver {

namespace fs = std::filesystem;

std::string shell_quote(const std::string& word) {
  if (!word.empty() && word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=/.,:@%") ==
                           std::string::npos)
    return word;
  std::string q = "'";
  for (char c : word) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

bool is_executable(const std::string& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec) && ::access(path.c_str(), X_OK) == 0;
}

std::string find_on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return {};
  std::stringstream dirs(path);
  for (std::string dir; std::getline(dirs, dir, ':');)
    if (!dir.empty() && is_executable((fs::path(dir) / program).string())) return (fs::path(dir) / program).string();
  return {};
}

Expected<std::string> capture(const std::string& command) {
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return make_error("cannot run: " + command);
  std::string out;
  std::array<char, 4096> buffer{};
  for (std::size_t n; (n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0;) out.append(buffer.data(), n);
  const int status = ::pclose(pipe);
  if (status != 0) return make_error("'" + command + "' failed:\n" + out);
  return out;
}

int run_shell(const std::string& command) { return std::system(command.c_str()); }

}  // namespace warpscope::driver
