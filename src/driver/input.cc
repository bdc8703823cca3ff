// kernel_input.cc: reading kernels and launch options for `warpscope kernel`.
#include "driver/input.h"
#include "driver/toolchain.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <algorithm>

namespace warpscope::driver {

namespace fs = std::filesystem;

namespace {

Expected<std::string> slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error("cannot read '" + path + "'");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

Expected<std::uint64_t> parse_count(const std::string& text, const std::string& what) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos || text.size() > 12)
    return make_usage_error(what + ": '" + text + "' is not a non-negative integer");
  return std::stoull(text);
}

}  // namespace

Expected<std::string> read_text_file(const std::string& path) { return slurp(path); }

Status write_text_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out.flush()) return make_error("cannot write '" + path + "'");
  return Ok{};
}

bool looks_like_cuda_source(const std::string& text) {
  if (text.find(".version") != std::string::npos || text.find(".target") != std::string::npos) return false;
  return text.find("__global__") != std::string::npos || text.find("#include") != std::string::npos ||
         text.find("__device__") != std::string::npos;
}

Expected<PtxText> read_ptx(const std::string& file, const std::optional<std::string>& text,
                           const SourceOptions& options) {
  const fs::path path(file);
  const std::string dir = path.has_parent_path() ? path.parent_path().string() : ".";
  if (!options.lang.empty() && options.lang != "ptx" && options.lang != "cu")
    return make_usage_error("--lang: '" + options.lang + "' is not ptx or cu");
  const bool cuda_source = options.lang.empty() ? path.extension() == ".cu" || path.extension() == ".cuh"
                                                : options.lang == "cu";
  if (!cuda_source) {
    std::string ptx;
    if (text) {
      ptx = *text;
    } else {
      auto read = slurp(file);
      if (!read) return read.error();
      ptx = std::move(*read);
    }
    if (options.lang.empty() && looks_like_cuda_source(ptx))
      return make_usage_error((text ? std::string("standard input ('-')") : "'" + file + "'") +
                              " is read as PTX, and it looks like CUDA source: give --lang cu (nvcc compiles it)" +
                              (text ? ", or the .cu file's name" : ""));
    return PtxText{file, std::move(ptx), dir};
  }
  if (!text && !fs::exists(path)) return make_error("cannot read '" + file + "'");
  const std::string name = text && path.extension() != ".cu" ? std::string("stdin.cu") : path.filename().string();
  auto ptx = text ? compile_cuda_text(*text, name, options.nvcc_args) : compile_cuda(file, options.nvcc_args);
  if (!ptx) return ptx.error();
  return PtxText{file, std::move(*ptx), text ? std::string(".") : dir};
}

Expected<emu::Dim3> parse_dim3(const std::string& text, const std::string& what) {
  std::vector<std::uint64_t> parts;
  std::stringstream s(text);
  for (std::string part; std::getline(s, part, ',');) {
    auto v = parse_count(part, what);
    if (!v) return v.error();
    if (*v == 0 || *v > 0x7fffffffull) return make_usage_error(what + ": each dimension must be 1 to 2^31-1, not " + part);
    parts.push_back(*v);
  }
  if (parts.empty() || parts.size() > 3 || (!text.empty() && text.back() == ','))
    return make_usage_error(what + ": expected X[,Y[,Z]], got '" + text + "'");
  emu::Dim3 d;
  d.x = static_cast<std::uint32_t>(parts[0]);
  if (parts.size() > 1) d.y = static_cast<std::uint32_t>(parts[1]);
  if (parts.size() > 2) d.z = static_cast<std::uint32_t>(parts[2]);
  return d;
}

Expected<std::vector<std::uint64_t>> parse_block_selection(const std::string& text, std::uint64_t total) {
  std::vector<std::uint64_t> ids;
  if (text.empty() || text == "all") return ids;  // empty: every block
  double fraction = -1;
  if (text.back() == '%') {
    char* end = nullptr;
    fraction = std::strtod(text.c_str(), &end) / 100.0;
    if (end != text.c_str() + text.size() - 1) fraction = -2;
  } else if (text.find('.') != std::string::npos) {
    char* end = nullptr;
    fraction = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size()) fraction = -2;
  }
  if (fraction != -1) {
    if (!(fraction > 0 && fraction <= 1)) return make_usage_error("--blocks: a fraction must be in (0, 1] or (0%, 100%], not '" + text + "'");
    const auto count = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(static_cast<double>(total) * fraction));
    for (std::uint64_t i = 0; i < count; ++i) ids.push_back(i * total / count);
    return ids;
  }
  std::stringstream s(text);
  for (std::string part; std::getline(s, part, ',');) {
    const auto dash = part.find('-');
    auto first = parse_count(part.substr(0, dash), "--blocks");
    if (!first) return first.error();
    std::uint64_t last = *first;
    if (dash != std::string::npos) {
      auto l = parse_count(part.substr(dash + 1), "--blocks");
      if (!l) return l.error();
      last = *l;
    }
    if (last < *first || last >= total)
      return make_usage_error("--blocks: '" + part + "' is outside the grid's blocks 0-" + std::to_string(total - 1));
    if (last - *first > 100000000) return make_usage_error("--blocks: range '" + part + "' is too large");
    for (std::uint64_t id = *first; id <= last; ++id) ids.push_back(id);
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

std::vector<std::string> read_source_lines(const std::string& path, const std::string& dir) {
  std::vector<std::string> lines;
  for (const fs::path& candidate : {fs::path(path), fs::path(dir) / path, fs::path(dir) / fs::path(path).filename()}) {
    std::ifstream in(candidate);
    if (!in) continue;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
  }
  return lines;
}

}  // namespace warpscope::driver
