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
    "SPEC, in the kernel's parameter order:\n"
    "  buf:<bytes>[:zero|:random]  device buffer (default fill: deterministic pseudo-random bytes)\n"
    "  file:<path>                 device buffer holding that file's bytes\n"
    "  i32:<v> u32:<v> i64:<v> u64:<v> f32:<v> f64:<v>\n"
    "  tmap:<buf:|file: spec>,dtype=<t>,dims=<d0>x..,strides=<s1>x..,box=<b0>x..,swizzle=<none|32B|64B|128B>\n"
    "       [,elemstrides=..][,interleave=none|16B|32B][,fill=zero|nan]   a CUtensorMap (cuTensorMapEncodeTiled)\n"
    "  --cluster X[,Y[,Z]]  blocks per thread block cluster\n";

namespace {

int64_t ParseSigned(const std::string& what, const std::string& text, int64_t lo, int64_t hi) {
  errno = 0;
  char* end = nullptr;
  long long v = std::strtoll(text.c_str(), &end, 0);
  if (text.empty() || *end != '\0' || errno == ERANGE || v < lo || v > hi)
    throw Error(what + ": '" + text + "' is not an integer in range [" + std::to_string(lo) +
                ", " + std::to_string(hi) + "]");
  return v;
}

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

double ParseFloat(const std::string& what, const std::string& text) {
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0') throw Error(what + ": '" + text + "' is not a number");
  return v;
}

}  // namespace

const char* ArgKindName(ArgKind kind) {
  switch (kind) {
    case ArgKind::Buffer: return "buf";
    case ArgKind::File: return "file";
    case ArgKind::I32: return "i32";
    case ArgKind::U32: return "u32";
    case ArgKind::I64: return "i64";
    case ArgKind::U64: return "u64";
    case ArgKind::F32: return "f32";
    case ArgKind::F64: return "f64";
    case ArgKind::TensorMap: return "tmap";
  }
  return "?";
}

unsigned ArgParamSize(ArgKind kind) {
  switch (kind) {
    case ArgKind::I32: case ArgKind::U32: case ArgKind::F32: return 4;
    case ArgKind::TensorMap: return 128;
    default: return 8;
  }
}

ArgSpec ParseArgSpec(const std::string& text) {
  ArgSpec spec;
  spec.text = text;
  size_t colon = text.find(':');
  if (colon == std::string::npos)
    throw Error("--arg '" + text + "': expected KIND:VALUE (buf:, file:, i32:, u32:, i64:, u64:, f32:, f64:)");
  std::string kind = text.substr(0, colon), value = text.substr(colon + 1);
  std::string what = "--arg '" + text + "'";
  if (kind == "buf") {
    spec.kind = ArgKind::Buffer;
    size_t fill_colon = value.find(':');
    if (fill_colon != std::string::npos) {
      std::string fill = value.substr(fill_colon + 1);
      value = value.substr(0, fill_colon);
      if (fill == "zero") spec.fill = BufferFill::Zero;
      else if (fill == "random") spec.fill = BufferFill::Random;
      else throw Error(what + ": unknown fill '" + fill + "' (use zero or random)");
    }
    spec.bytes = ParseUnsigned(what, value, uint64_t(1) << 40);
    if (spec.bytes == 0) throw Error(what + ": a buffer needs at least one byte");
  } else if (kind == "file") {
    if (value.empty()) throw Error(what + ": missing path");
    spec.kind = ArgKind::File;
    spec.path = value;
  } else if (kind == "i32") {
    spec.kind = ArgKind::I32;
    spec.int_value = ParseSigned(what, value, INT32_MIN, INT32_MAX);
  } else if (kind == "u32") {
    spec.kind = ArgKind::U32;
    spec.uint_value = ParseUnsigned(what, value, UINT32_MAX);
  } else if (kind == "i64") {
    spec.kind = ArgKind::I64;
    spec.int_value = ParseSigned(what, value, INT64_MIN, INT64_MAX);
  } else if (kind == "u64") {
    spec.kind = ArgKind::U64;
    spec.uint_value = ParseUnsigned(what, value, UINT64_MAX);
  } else if (kind == "f32") {
    spec.kind = ArgKind::F32;
    spec.float_value = ParseFloat(what, value);
  } else if (kind == "f64") {
    spec.kind = ArgKind::F64;
    spec.float_value = ParseFloat(what, value);
  } else if (kind == "tmap") {
    std::string why;
    if (!warpscope::tmap::parse_tensor_map_spec(text, spec.tmap, why)) throw Error(what + ": " + why);
    ArgSpec buffer = ParseArgSpec(spec.tmap.buffer);
    spec.kind = ArgKind::TensorMap;
    spec.tensor_kind = buffer.kind;
    spec.bytes = buffer.bytes;
    spec.fill = buffer.fill;
    spec.path = buffer.path;
  } else {
    throw Error(what + ": unknown kind '" + kind + "' (buf, file, tmap, i32, u32, i64, u64, f32, f64)");
  }
  return spec;
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
