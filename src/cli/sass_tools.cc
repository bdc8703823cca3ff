// sass_tools.cc: finding and running ptxas and nvdisasm.
#include "cli/sass_tools.h"

#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace warpscope::cli {

namespace fs = std::filesystem;

namespace {

std::string find_on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return {};
  std::stringstream dirs(path);
  for (std::string dir; std::getline(dirs, dir, ':');)
    if (!dir.empty() && fs::exists(fs::path(dir) / program)) return (fs::path(dir) / program).string();
  return {};
}

// Runs a shell command, returns its standard output, or an error with what it printed.
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

std::string find_nvdisasm() {
  if (auto p = find_on_path("nvdisasm"); !p.empty()) return p;
  if (fs::exists("/usr/local/cuda/bin/nvdisasm")) return "/usr/local/cuda/bin/nvdisasm";
  auto found = capture(
      "python3 -c \"import glob,site,sys; "
      "d=site.getsitepackages()+[site.getusersitepackages()]; "
      "m=[p for s in d for p in sorted(glob.glob(s+'/nvidia/cu*/bin/nvdisasm'))]; print(m[-1] if m else '')\"");
  if (!found) return {};
  std::string path = *found;
  while (!path.empty() && (path.back() == '\n' || path.back() == '\r')) path.pop_back();
  return fs::exists(path) ? path : std::string();
}

}  // namespace

Expected<std::string> disassemble_ptx(const std::string& ptx_text, const std::string& arch) {
  const std::string ptxas = find_on_path("ptxas").empty() && fs::exists("/usr/local/cuda/bin/ptxas")
                                ? "/usr/local/cuda/bin/ptxas"
                                : find_on_path("ptxas");
  if (ptxas.empty()) return make_error("ptxas is not on PATH");
  static const std::string nvdisasm = find_nvdisasm();
  if (nvdisasm.empty()) return make_error("nvdisasm was not found (pip install nvidia-cuda-nvdisasm)");
  const fs::path dir = fs::temp_directory_path() / ("warpscope-sass-" + std::to_string(::getpid()));
  std::error_code ec;
  fs::create_directories(dir, ec);
  const fs::path ptx = dir / "kernel.ptx", cubin = dir / "kernel.cubin";
  std::ofstream(ptx) << ptx_text;
  auto compiled = capture(ptxas + " -arch=" + arch + " -lineinfo -o " + cubin.string() + " " + ptx.string());
  Expected<std::string> listing = compiled ? capture(nvdisasm + " -c -gi " + cubin.string()) : Expected<std::string>(compiled.error());
  fs::remove_all(dir, ec);
  return listing;
}

}  // namespace warpscope::cli
