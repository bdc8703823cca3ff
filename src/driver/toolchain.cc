// toolchain.cc: finding and running nvcc, ptxas and nvdisasm (through process.h).
#include "driver/toolchain.h"
#include "driver/process.h"
#include "sass/line_table.h"

#include <unistd.h>

#include <array>
#include <cctype>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace warpscope::driver {

namespace fs = std::filesystem;

namespace {

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

std::string find_ptxas() {
  if (auto p = find_on_path("ptxas"); !p.empty()) return p;
  return fs::exists("/usr/local/cuda/bin/ptxas") ? "/usr/local/cuda/bin/ptxas" : std::string();
}

// The architecture ptxas compiles for: `arch`, or its `a` variant when the PTX targets that
// (Triton emits `.target sm_90a`, which ptxas refuses to compile for sm_90).
std::string ptxas_arch(const std::string& ptx_text, const std::string& arch) {
  const std::size_t target = ptx_text.find(".target");
  if (target == std::string::npos) return arch;
  const std::size_t end = ptx_text.find('\n', target);
  const std::string line = ptx_text.substr(target, end == std::string::npos ? std::string::npos : end - target);
  const std::string accelerated = arch + "a";
  const std::size_t at = line.find(accelerated);
  const bool whole = at != std::string::npos &&
                     (at + accelerated.size() == line.size() || !std::isalnum(static_cast<unsigned char>(line[at + accelerated.size()])));
  return whole ? accelerated : arch;
}

}  // namespace

Expected<std::string> compile_cuda(const std::string& cu_path, const std::vector<std::string>& extra) {
  if (find_on_path("nvcc").empty())
    return make_error("'" + cu_path + "' is CUDA source, and nvcc is not on PATH to compile it; give the PTX instead (nvcc -arch=sm_90 -lineinfo -ptx " + cu_path + ")");
  const fs::path out = fs::temp_directory_path() / ("warpscope-" + std::to_string(::getpid()) + ".ptx");
  const fs::path log = fs::path(out).replace_extension(".log");
  std::string words = "nvcc -arch=sm_90 -lineinfo -ptx";
  for (const std::string& a : extra) words += " " + shell_quote(a);
  if (fs::path(cu_path).extension() != ".cu") words += " -x cu";  // a .cuh, or standard input
  words += " " + shell_quote(cu_path);
  const std::string cmd = words + " -o " + shell_quote(out.string()) + " > " + shell_quote(log.string()) + " 2>&1";
  const int status = run_shell(cmd);
  auto slurp = [](const fs::path& p) -> std::optional<std::string> {
    std::ifstream in(p, std::ios::binary);
    if (!in) return std::nullopt;
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  };
  auto text = slurp(out);
  auto messages = slurp(log);
  std::error_code ec;
  fs::remove(out, ec);
  fs::remove(log, ec);
  if (status != 0 || !text) {
    std::string said = messages.value_or("");
    while (!said.empty() && (said.back() == '\n' || said.back() == '\r')) said.pop_back();
    return make_error("nvcc could not compile '" + cu_path + "' (" + words + "); nvcc said:\n" +
                      (said.empty() ? "(nothing)" : said));
  }
  return std::move(*text);
}

Expected<std::string> compile_cuda_text(const std::string& source, const std::string& name,
                                        const std::vector<std::string>& extra) {
  const fs::path dir = fs::temp_directory_path() / ("warpscope-cu-" + std::to_string(::getpid()));
  std::error_code ec;
  fs::create_directories(dir, ec);
  const fs::path file = dir / (name.empty() ? std::string("kernel.cu") : name);
  std::ofstream(file) << source;
  // nvcc looks for quoted includes beside the file: give it the current folder too.
  std::vector<std::string> args = extra;
  args.push_back("-I.");
  auto ptx = compile_cuda(file.string(), args);
  fs::remove_all(dir, ec);
  return ptx;
}

// Listings are cached by the PTX's text and the target (nvdisasm alone takes most of a
// second): $XDG_CACHE_HOME/warpscope or ~/.cache/warpscope, <fnv1a-64>.sass. The hash
// includes the listing's format version (2: with the line table's rows, line_table.h), so a
// listing cached by an older warpscope is made again.
fs::path cache_path(const std::string& ptx_text, const std::string& arch, const char* extension = ".sass") {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : "rows 2\n" + arch + '\n' + ptx_text) h = (h ^ c) * 1099511628211ull;
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  const fs::path root = xdg && *xdg ? fs::path(xdg) : home && *home ? fs::path(home) / ".cache" : fs::temp_directory_path();
  char name[40];
  std::snprintf(name, sizeof name, "%016llx%s", static_cast<unsigned long long>(h), extension);
  return root / "warpscope" / name;
}

// The listing with the cubin's line-table rows (ncu's Source-page lines); as nvdisasm wrote
// it when the cubin has no readable .debug_line.
std::string with_rows(const std::string& listing, const fs::path& cubin) {
  std::ifstream in(cubin, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  auto rows = sass::read_line_rows(bytes.str());
  return rows ? sass::annotate_listing(listing, *rows) : listing;
}

Expected<std::string> disassemble_ptx(const std::string& ptx_text, const std::string& arch) {
  const fs::path cached = cache_path(ptx_text, arch);
  if (std::ifstream in(cached); in) {
    std::ostringstream s;
    s << in.rdbuf();
    if (!s.str().empty()) return s.str();
  }
  const std::string ptxas = find_ptxas();
  if (ptxas.empty()) return make_error("ptxas is not on PATH");
  static const std::string nvdisasm = find_nvdisasm();
  if (nvdisasm.empty()) return make_error("nvdisasm was not found (pip install nvidia-cuda-nvdisasm)");
  const fs::path dir = fs::temp_directory_path() / ("warpscope-sass-" + std::to_string(::getpid()));
  std::error_code ec;
  fs::create_directories(dir, ec);
  const fs::path ptx = dir / "kernel.ptx", cubin = dir / "kernel.cubin";
  std::ofstream(ptx) << ptx_text;
  auto compiled = capture(shell_quote(ptxas) + " -arch=" + shell_quote(ptxas_arch(ptx_text, arch)) + " -lineinfo -o " + shell_quote(cubin.string()) + " " +
                          shell_quote(ptx.string()));
  Expected<std::string> listing = compiled ? capture(shell_quote(nvdisasm) + " -c -gi " + shell_quote(cubin.string())) : Expected<std::string>(compiled.error());
  if (listing) *listing = with_rows(*listing, cubin);
  fs::remove_all(dir, ec);
  if (listing) {  // best effort: an unwritable cache only costs time
    fs::create_directories(cached.parent_path(), ec);
    std::ofstream(cached) << *listing;
  }
  return listing;
}

Expected<std::string> disassemble_cubin(const std::string& cubin, const std::string& nvdisasm_path) {
  const fs::path cached = cache_path(cubin, "cubin");
  if (std::ifstream in(cached); in) {
    std::ostringstream s;
    s << in.rdbuf();
    if (!s.str().empty()) return s.str();
  }
  const std::string nvdisasm = nvdisasm_path.empty() ? find_nvdisasm() : nvdisasm_path;
  if (nvdisasm.empty()) return make_error("nvdisasm was not found (pip install nvidia-cuda-nvdisasm)");
  if (!is_executable(nvdisasm)) return make_error("'" + nvdisasm + "' is not an executable nvdisasm");
  // One folder per call: the Python binding may run several analyses at once.
  static std::atomic<unsigned> calls{0};
  const fs::path dir = fs::temp_directory_path() /
                       ("warpscope-cubin-" + std::to_string(::getpid()) + "-" + std::to_string(calls++));
  std::error_code ec;
  fs::create_directories(dir, ec);
  const fs::path file = dir / "kernel.cubin";
  std::ofstream(file, std::ios::binary) << cubin;
  auto listing = capture(shell_quote(nvdisasm) + " -c -gi " + shell_quote(file.string()));
  if (listing) *listing = with_rows(*listing, file);
  fs::remove_all(dir, ec);
  if (listing) {
    fs::create_directories(cached.parent_path(), ec);
    std::ofstream(cached) << *listing;
  }
  return listing;
}

std::optional<int> parse_ptxas_registers(const std::string& output, const std::string& kernel) {
  const std::string entry = "Compiling entry function '" + kernel + "'";
  std::size_t at = output.find(entry);
  if (at == std::string::npos) return std::nullopt;
  const std::size_t next = output.find("Compiling entry function '", at + entry.size());
  const std::size_t used = output.find("Used ", at);
  if (used == std::string::npos || used > next) return std::nullopt;
  std::size_t end = used + 5;
  int n = 0;
  bool digits = false;
  for (; end < output.size() && output[end] >= '0' && output[end] <= '9'; ++end, digits = true) {
    n = n * 10 + (output[end] - '0');
    if (n > 65536) return std::nullopt;  // no GPU has that many registers per thread (and no overflow)
  }
  if (!digits || output.compare(end, 10, " registers") != 0) return std::nullopt;
  return n;
}

Expected<int> ptxas_registers(const std::string& ptx_text, const std::string& arch, const std::string& kernel) {
  const fs::path cached = cache_path(ptx_text, arch, ".ptxas-v");
  std::string output;
  if (std::ifstream in(cached); in) {
    std::ostringstream s;
    s << in.rdbuf();
    output = s.str();
  }
  if (output.empty()) {
    const std::string ptxas = find_ptxas();
    if (ptxas.empty()) return make_error("ptxas is not on PATH");
    const fs::path dir = fs::temp_directory_path() / ("warpscope-regs-" + std::to_string(::getpid()));
    std::error_code ec;
    fs::create_directories(dir, ec);
    const fs::path ptx = dir / "kernel.ptx", cubin = dir / "kernel.cubin";
    std::ofstream(ptx) << ptx_text;
    auto compiled = capture(shell_quote(ptxas) + " -v -arch=" + shell_quote(ptxas_arch(ptx_text, arch)) + " -o " + shell_quote(cubin.string()) + " " +
                            shell_quote(ptx.string()));
    fs::remove_all(dir, ec);
    if (!compiled) return compiled.error();
    output = *compiled;
    fs::create_directories(cached.parent_path(), ec);
    std::ofstream(cached) << output;
  }
  auto n = parse_ptxas_registers(output, kernel);
  if (!n) return make_error("ptxas -v did not report registers for '" + kernel + "'");
  return *n;
}

}  // namespace warpscope::driver
