// Parses the ptxlaunch command line (the launches.txt syntax) into a LaunchSpec.
#include "launch_spec.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace ptxlaunch {

const char* const kUsage =
    "usage: ptxlaunch FILE.ptx --kernel K --grid X[,Y[,Z]] --block X[,Y[,Z]]\n"
    "                 [--dyn-smem BYTES] [--arg SPEC]... [--repeat N] [--seed S] [--device D] [--dry-run]\n"
    "                 [--dump DIR]   (buffers after the first launch: DIR/arg<i>.bin)\n"
    "       ptxlaunch FILE.ptx --list\n"
    "       ptxlaunch --batch FILE   (one launch per line, 'NAME FILE.ptx --kernel ...', in one process)\n"
    "SPEC, in the kernel's parameter order (the grammar of warpscope's --arg; <size> and <count>\n"
    "take K, M, G, T suffixes, powers of 1024):\n"
    "  i8 u8 i16 u16 i32 u32 i64 u64 f16 bf16 f32 f64 bool:<value>\n"
    "  buf:<size>[:zero|:random]   device buffer (default fill: deterministic pseudo-random bytes)\n"
    "  file:<path>                 device buffer holding that file's bytes\n"
    "  fill:<size>[:<type>]:<value>, iota:<count>:<type>[:<start>[:<step>]],\n"
    "  rand:<count>:<type>:<seed>[:<lo>:<hi>]   device buffers of typed elements\n"
    "  bytes:<hex>, struct:<field>,<field>,...   a by-value parameter (a struct)\n"
    "  tmap:<buffer>,dtype=<t>,dims=<d0>x..,strides=<s1>x..,box=<b0>x..,swizzle=<none|32B|64B|128B>\n"
    "       [,elemstrides=..][,interleave=none|16B|32B][,fill=zero|nan]   a CUtensorMap (cuTensorMapEncodeTiled)\n"
    "  --cluster X[,Y[,Z]]  blocks per thread block cluster\n"
    "  --cooperative        a cooperative launch (implied when the kernel uses this_grid())\n";

namespace {

uint64_t ParseUnsigned(const std::string& what, const std::string& text, uint64_t hi) {
  errno = 0;
  char* end = nullptr;
  if (text.empty() || text[0] == '-')
    throw Error(what + ": '" + text + "' is not an unsigned integer");
  unsigned long long v = std::strtoull(text.c_str(), &end, 0);
  if (*end != '\0' || errno == ERANGE || v > hi)
    throw Error(what + ": '" + text + "' is not an unsigned integer <= " + std::to_string(hi));
  return v;
}

}  // namespace

ArgSpec ParseArgSpec(const std::string& text) {
  ArgSpec spec;
  std::string error;
  if (!warpscope::emu::parse_arg_spec(text, spec, error)) throw Error("--arg '" + text + "': " + error);
  if (spec.form == ArgSpec::Form::Padding) throw Error("--arg '" + text + "': pad:<n> is only a struct field");
  return spec;
}

std::vector<BufferNeed> BuffersOf(const ArgSpec& arg) {
  std::vector<BufferNeed> out;
  if (arg.form == ArgSpec::Form::Buffer || arg.form == ArgSpec::Form::Extension) out.push_back({&arg.buffer, -1});  // tmap: its tensor's
  for (size_t j = 0; j < arg.fields.size(); ++j)
    if (arg.fields[j].form == ArgSpec::Form::Buffer) out.push_back({&arg.fields[j].buffer, int(j)});
  return out;
}

std::vector<unsigned char> BufferBytes(const BufferRecipe& recipe, uint64_t seed, size_t index, int field,
                                       const FileReader& read_file) {
  using Contents = BufferRecipe::Contents;
  if (recipe.contents == Contents::File) {
    std::string bytes = read_file(recipe.path);
    if (bytes.empty()) throw Error("file '" + recipe.path + "' is empty");
    return std::vector<unsigned char>(bytes.begin(), bytes.end());
  }
  std::vector<unsigned char> data(recipe.bytes, 0);
  if (recipe.contents == Contents::Default || recipe.contents == Contents::RandomBytes)
    warpscope::emu::write_random_bytes(warpscope::emu::random_bytes_seed(seed, index, field), data.data(), data.size());
  else
    warpscope::emu::write_contents(recipe, data.data());
  return data;
}

std::vector<unsigned char> ParamBytes(const ArgSpec& arg, const std::vector<uint64_t>& addresses) {
  auto pointer = [](uint64_t a) {
    std::vector<unsigned char> b(8);
    for (int k = 0; k < 8; ++k) b[size_t(k)] = (unsigned char)(a >> (8 * k));
    return b;
  };
  switch (arg.form) {
    case ArgSpec::Form::Buffer: return pointer(addresses.at(0));
    case ArgSpec::Form::Struct: {
      std::vector<unsigned char> out(arg.size, 0);
      size_t next = 0;
      for (size_t j = 0; j < arg.fields.size(); ++j) {
        const ArgSpec& f = arg.fields[j];
        std::vector<unsigned char> b = f.form == ArgSpec::Form::Buffer ? pointer(addresses.at(next++))
                                                                       : std::vector<unsigned char>(f.bytes.begin(), f.bytes.end());
        std::copy(b.begin(), b.end(), out.begin() + long(arg.offsets[j]));
      }
      return out;
    }
    case ArgSpec::Form::Extension:  // tmap: the driver encodes the map (ptxlaunch.cc)
      throw Error("--arg '" + arg.text + "': a '" + arg.kind + ":' argument's bytes come from the driver");
    default: return std::vector<unsigned char>(arg.bytes.begin(), arg.bytes.end());
  }
}

Dim3 ParseDim3(const std::string& option, const std::string& text) {
  unsigned v[3] = {1, 1, 1};
  size_t start = 0;
  for (int i = 0; i < 3; ++i) {
    size_t comma = text.find(',', start);
    std::string part = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    v[i] = unsigned(ParseUnsigned(option + " '" + text + "'", part, UINT32_MAX));
    if (v[i] == 0) throw Error(option + " '" + text + "': dimensions must be >= 1");
    if (comma == std::string::npos) {
      return Dim3{v[0], v[1], v[2]};
    }
    start = comma + 1;
  }
  throw Error(option + " '" + text + "': expected X[,Y[,Z]]");
}

LaunchSpec ParseCommandLine(const std::vector<std::string>& argv) {
  LaunchSpec spec;
  for (size_t i = 0; i < argv.size(); ++i) {
    std::string option = argv[i], value;
    bool has_inline_value = false;
    if (option.rfind("--", 0) == 0) {
      size_t eq = option.find('=');
      if (eq != std::string::npos) {
        value = option.substr(eq + 1);
        option = option.substr(0, eq);
        has_inline_value = true;
      }
    }
    auto next = [&]() -> std::string {
      if (has_inline_value) return value;
      if (i + 1 >= argv.size()) throw Error(option + ": missing value");
      return argv[++i];
    };
    if (option == "--kernel" || option == "-k") spec.kernel = next();
    else if (option == "--grid") { spec.grid = ParseDim3("--grid", next()); spec.grid_set = true; }
    else if (option == "--block") { spec.block = ParseDim3("--block", next()); spec.block_set = true; }
    else if (option == "--dyn-smem") spec.dyn_smem = unsigned(ParseUnsigned("--dyn-smem", next(), UINT32_MAX));
    else if (option == "--cluster") { spec.cluster = ParseDim3("--cluster", next()); spec.cluster_set = true; }
    else if (option == "--cooperative") spec.cooperative = true;
    else if (option == "--arg") spec.args.push_back(ParseArgSpec(next()));
    else if (option == "--repeat") spec.repeat = unsigned(ParseUnsigned("--repeat", next(), 1000000));
    else if (option == "--seed") spec.seed = ParseUnsigned("--seed", next(), UINT64_MAX);
    else if (option == "--device") spec.device = int(ParseUnsigned("--device", next(), 1024));
    else if (option == "--list") spec.list_kernels = true;
    else if (option == "--dry-run") spec.dry_run = true;
    else if (option == "--dump") spec.dump_dir = next();
    else if (option == "--help" || option == "-h") throw Error(kUsage);
    else if (option.rfind("-", 0) == 0) throw Error("unknown option '" + option + "'\n" + kUsage);
    else if (spec.ptx_path.empty()) spec.ptx_path = option;
    else throw Error("unexpected argument '" + option + "' (the PTX file is '" + spec.ptx_path + "')");
  }
  if (spec.ptx_path.empty()) throw Error(std::string("missing the PTX file\n") + kUsage);
  if (spec.list_kernels) return spec;
  if (spec.kernel.empty()) throw Error("missing --kernel");
  if (!spec.grid_set) throw Error("missing --grid");
  if (!spec.block_set) throw Error("missing --block");
  return spec;
}

}  // namespace ptxlaunch
