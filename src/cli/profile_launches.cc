// profile_launches.cc: launch lines, and matching them to profiled kernels.
#include "cli/profile_launches.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "profile/kernel_name.h"

namespace warpscope::cli {

namespace fs = std::filesystem;

namespace {

std::vector<std::string> split_words(const std::string& text) {
  std::vector<std::string> words;
  std::istringstream s(text);
  for (std::string w; s >> w;) words.push_back(w);
  return words;
}

bool is_source_file(const std::string& word) {
  const std::string ext = fs::path(word).extension().string();
  return ext == ".ptx" || ext == ".cu";
}

std::string dims_text(const emu::Dim3& d) {
  return std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z);
}

// A path as written when it exists from here, else under the first folder that has it.
std::string resolve(const std::string& path, const std::vector<fs::path>& folders) {
  std::error_code ec;
  if (path.empty() || fs::path(path).is_absolute() || fs::exists(path, ec)) return path;
  for (const fs::path& folder : folders)
    if (fs::exists(folder / path, ec)) return (folder / path).lexically_normal().string();
  return path;
}

}  // namespace

std::string LaunchSpec::text() const {
  std::string out = name.empty() ? "" : name + ": ";
  for (std::size_t i = 0; i < words.size(); ++i) out += (i ? " " : "") + words[i];
  return out;
}

Expected<LaunchOptions> launch_options_from_words(const std::vector<std::string>& words) {
  LaunchOptions o;
  for (std::size_t i = 0; i < words.size(); ++i) {
    std::string word = words[i], value;
    const bool option = word.rfind("--", 0) == 0;
    bool inline_value = false;
    if (option && word.find('=') != std::string::npos) {
      value = word.substr(word.find('=') + 1);
      word = word.substr(0, word.find('='));
      inline_value = true;
    }
    auto take = [&](std::string& into) -> Status {
      if (inline_value) {
        into = value;
        return Ok{};
      }
      if (i + 1 >= words.size()) return make_error("launch: " + word + " needs a value");
      into = words[++i];
      return Ok{};
    };
    if (!option) {
      if (!o.request.file.empty()) return make_error("launch: two files, '" + o.request.file + "' and '" + word + "'");
      o.request.file = word;
    } else if (word == "--kernel" || word == "--grid" || word == "--block" || word == "--arg" || word == "--dyn-smem" ||
               word == "--cluster") {
      std::string v;
      if (auto s = take(v); !s) return s.error();
      if (word == "--kernel") o.request.kernel = v;
      else if (word == "--cluster") o.request.cluster = v;
      else if (word == "--grid") o.request.grid = v;
      else if (word == "--block") o.request.block = v;
      else if (word == "--dyn-smem") {
        if (v.empty() || v.size() > 10 || v.find_first_not_of("0123456789") != std::string::npos || std::stoull(v) > 0xffffffffull)
          return make_error("launch: --dyn-smem '" + v + "' is not a byte count");
        o.request.dyn_smem = static_cast<std::uint32_t>(std::stoull(v));
      } else {
        o.request.args.push_back(v);  // one grammar for both tools (emu/arg_spec.h)
      }
    } else if (word == "--nvcc-arg" || word == "--lang") {  // warpscope's own, for .cu launches
      std::string v;
      if (auto s = take(v); !s) return s.error();
      if (word == "--lang") o.request.lang = v;
      else o.request.nvcc_args.push_back(v);
    } else if (word == "--repeat" || word == "--seed" || word == "--device") {
      std::string ignored;
      if (auto s = take(ignored); !s) return s.error();
    } else if (word == "--cooperative") {
      o.request.cooperative = true;
    } else if (word != "--dry-run") {
      return make_error("launch: unknown option '" + word + "'");
    }
  }
  if (o.request.file.empty()) return make_error("launch: no .ptx (or .cu) file");
  return o;
}

Expected<std::vector<LaunchSpec>> read_launches_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) return make_error("--launches: cannot read '" + path + "'");
  const fs::path dir = fs::path(path).parent_path();
  const std::vector<fs::path> folders{dir.empty() ? fs::path(".") : dir, (dir.empty() ? fs::path(".") : dir) / ".."};
  std::vector<LaunchSpec> specs;
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    auto words = split_words(line);
    if (words.empty() || words[0][0] == '#') continue;
    LaunchSpec spec;
    spec.name = words[0];
    spec.origin = path + ":" + std::to_string(number);
    for (std::size_t i = 1; i < words.size(); ++i) {
      std::string w = words[i];
      if (is_source_file(w) && w.rfind("--", 0) != 0) w = resolve(w, folders);
      else if (w.rfind("file:", 0) == 0) w = "file:" + resolve(w.substr(5), folders);
      spec.words.push_back(w);
    }
    if (spec.words.empty()) {
      Error e = make_error("launch '" + spec.name + "' has no file and options");
      e.where = SourcePosition{path, number, 1};
      return e;
    }
    specs.push_back(std::move(spec));
  }
  return specs;
}

std::optional<LaunchSpec> launch_from_program(const std::vector<std::string>& program) {
  for (std::size_t i = 1; i < program.size(); ++i)
    if (is_source_file(program[i]) && program[i].rfind("--", 0) != 0)
      return LaunchSpec{"", std::vector<std::string>(program.begin() + 1, program.end()), "the program's arguments", 0};
  return std::nullopt;
}

LaunchSpec launch_from_text(const std::string& text) { return LaunchSpec{"", split_words(text), "--launch", 1}; }

LaunchMatch LaunchMatcher::match(const profile::MeasuredKernel& kernel, const std::string& hint, std::istream& in) {
  LaunchMatch result;
  std::vector<const LaunchSpec*> candidates;
  if (!hint.empty())
    for (const LaunchSpec& s : specs_)
      if (s.name == hint) candidates.push_back(&s);
  if (candidates.empty())
    for (const LaunchSpec& s : specs_) candidates.push_back(&s);
  if (specs_.empty()) {
    result.why_not = "no launch line for it (its PTX and arguments: give --launches FILE or --launch 'FILE.ptx --kernel K "
                     "--grid X --block X --arg SPEC...', or profile it through tools/ptxlaunch)";
    return result;
  }
  std::vector<std::string> near;  // launches of this kernel with another shape, for the message
  std::vector<LaunchMatch> found;
  for (const LaunchSpec* s : candidates) {
    auto options = launch_options_from_words(s->words);
    if (!options) {
      near.push_back(s->origin + ": " + options.error().message);
      continue;
    }
    // Cheap checks on the text first; only the survivors are read and parsed.
    if (!options->request.kernel.empty() && !profile::kernel_names_match(kernel.name, options->request.kernel)) continue;
    auto grid = driver::parse_dim3(options->request.grid, "--grid");
    auto block = driver::parse_dim3(options->request.block, "--block");
    const bool same_shape = grid && block && *grid == kernel.grid && *block == kernel.block &&
                            (!kernel.dynamic_shared_bytes || *kernel.dynamic_shared_bytes == options->request.dyn_smem);
    if (!same_shape) {
      near.push_back(s->text() + " (grid " + options->request.grid + " block " + options->request.block + ")");
      continue;
    }
    LaunchOptions o = common_;
    o.request.file = options->request.file;
    o.request.kernel = options->request.kernel;
    o.request.grid = options->request.grid;
    o.request.block = options->request.block;
    o.request.dyn_smem = options->request.dyn_smem;
    o.request.args = options->request.args;
    auto prepared = prepare_launch(o, in);
    if (!prepared) {
      near.push_back(s->text() + ": " + prepared.error().message);
      continue;
    }
    if (!profile::kernel_names_match(kernel.name, (*prepared)->kernel_name)) continue;
    LaunchMatch m;
    m.spec = s;
    m.options = std::move(o);
    m.prepared = std::move(*prepared);
    found.push_back(std::move(m));
  }
  // The program's own arguments outrank --launch, which outranks a launches file.
  int best = 3;
  for (const LaunchMatch& m : found) best = std::min(best, m.spec->rank);
  std::erase_if(found, [best](const LaunchMatch& m) { return m.spec->rank != best; });
  if (found.size() == 1) return std::move(found[0]);
  if (found.size() > 1) {
    result.why_not = std::to_string(found.size()) + " launches fit its name, grid and block (";
    for (std::size_t i = 0; i < found.size(); ++i)
      result.why_not += (i ? ", " : "") + (found[i].spec->name.empty() ? found[i].spec->origin : found[i].spec->name);
    result.why_not += "): name the one that ran with --launch";
    return result;
  }
  result.why_not = "no launch given fits it (ncu measured grid " + dims_text(kernel.grid) + " block " + dims_text(kernel.block);
  if (kernel.dynamic_shared_bytes) result.why_not += " dyn-smem " + std::to_string(*kernel.dynamic_shared_bytes);
  result.why_not += ")";
  if (!near.empty()) {
    result.why_not += "; of the same name: " + near[0];
    if (near.size() > 1) result.why_not += " and " + std::to_string(near.size() - 1) + " more";
  }
  return result;
}

}  // namespace warpscope::cli
