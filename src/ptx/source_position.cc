// source_position.cc: user positions of instructions (see source_position.h).
#include "ptx/source_position.h"

namespace warpscope::ptx {

namespace {

std::string file_of(const Module& module, int file) {
  auto it = module.files.find(file);
  return it == module.files.end() ? "file" + std::to_string(file) : it->second;
}

// The part of a toolkit path after its include folder, or npos.
std::size_t include_tail(std::string_view path) {
  for (std::string_view marker : {"/targets/x86_64-linux/include/", "/targets/sbsa-linux/include/",
                                  "/targets/aarch64-linux/include/", "/cccl/"}) {
    const auto at = path.find(marker);
    if (at != std::string_view::npos) return at + marker.size();
  }
  // /usr/local/cuda/include/..., /usr/local/cuda-13.0/include/..., /opt/cuda/include/...
  for (std::size_t at = path.find("/cuda"); at != std::string_view::npos; at = path.find("/cuda", at + 1)) {
    std::size_t end = at + 5;
    while (end < path.size() && path[end] != '/') ++end;
    const std::string_view name = path.substr(at + 1, end - at - 1);  // "cuda", "cuda-13.0"
    const bool install = name == "cuda" || (name.size() > 5 && name[4] == '-' &&
                                            name.find_first_not_of("0123456789.", 5) == std::string_view::npos);
    if (install && path.compare(end, 9, "/include/") == 0) return end + 9;
  }
  if (path.rfind("/usr/include/", 0) == 0) return 13;
  return std::string_view::npos;
}

}  // namespace

bool is_toolkit_header(std::string_view path) { return include_tail(path) != std::string_view::npos; }

std::string display_file(std::string_view path) {
  const std::size_t tail = include_tail(path);
  return std::string(tail == std::string_view::npos ? path : path.substr(tail));
}

SourceLoc user_loc(const Module& module, const DebugLoc& debug) {
  for (const SourceLoc& loc : {debug.loc, debug.inner, debug.outer})
    if (loc.known() && !is_toolkit_header(file_of(module, loc.file))) return loc;
  return debug.loc;
}

std::string source_position(const Module& module, const Instruction& inst) {
  const SourceLoc loc = user_loc(module, inst.debug);
  if (!loc.known()) {  // the PTX line is the only position there is
    const std::string& p = module.path;
    const bool ptx_file = p.size() > 4 && p.compare(p.size() - 4, 4, ".ptx") == 0;
    return ptx_file ? p + ":" + std::to_string(inst.ptx_line) : "PTX line " + std::to_string(inst.ptx_line);
  }
  std::string out = file_of(module, loc.file) + ":" + std::to_string(loc.line);
  if (loc.column > 0) out += ":" + std::to_string(loc.column);
  return out;
}

}  // namespace warpscope::ptx
