// args.cc: --arg specs -> kernel arguments and buffers.
#include "emu/args.h"

#include <charconv>
#include <cstdlib>
#include <fstream>
#include <iterator>

#include "support/kernel_name.h"

namespace warpscope::emu {
namespace {

template <class T>
bool parse_int(std::string_view s, T& out) {
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    s.remove_prefix(2);
    base = 16;
  }
  auto r = std::from_chars(s.data(), s.data() + s.size(), out, base);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

bool parse_double(const std::string& s, double& out) {
  char* end = nullptr;
  out = std::strtod(s.c_str(), &end);
  return !s.empty() && end == s.c_str() + s.size();
}

}  // namespace

Expected<std::vector<std::uint8_t>> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error("cannot read '" + path + "'");
  return std::vector<std::uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

Expected<Arguments> make_arguments(const ptx::Module& module, int kernel, const std::vector<std::string>& specs,
                                   GlobalMemory& memory, const FileReader& reader) {
  const ptx::Function& f = module.functions[static_cast<std::size_t>(kernel)];
  auto params_text = [&] { return "kernel '" + kernel_short_name(f.name) + "' takes " + describe_params(module, kernel); };
  if (specs.size() != f.params.size())
    return make_error(std::to_string(specs.size()) + " arguments given; " + params_text());
  Arguments out;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const std::string& spec = specs[i];
    const ptx::Variable& p = module.variables[static_cast<std::size_t>(f.params[i])];
    auto colon = spec.find(':');
    std::string kind = spec.substr(0, colon), value = colon == std::string::npos ? "" : spec.substr(colon + 1);
    auto bad = [&](const std::string& why) {
      return make_error("argument " + std::to_string(i + 1) + " '" + spec + "': " + why + "; " + params_text());
    };
    bool float_param = ptx::is_float(p.type);
    KernelArg arg;
    std::uint64_t buffer = 0;
    if (kind == "tmap") {  // a __grid_constant__ CUtensorMap (tensor_map_arg.cc)
      auto a = tensor_map_argument(spec, p, "arg" + std::to_string(i), memory, reader, buffer);
      if (!a) return bad(a.error().message);
      arg = std::move(*a);
    } else if (kind == "buf" || kind == "file") {
      if (p.size != 8 || float_param)
        return bad("a buffer needs a 64-bit pointer parameter, '" + param_name(module, kernel, i) + "' is not");
      std::string name = "arg" + std::to_string(i);
      if (kind == "buf") {
        std::uint64_t bytes = 0;
        if (!parse_int(value, bytes)) return bad("expected a byte count");
        buffer = memory.allocate(bytes, name);
      } else {
        auto data = reader(value);
        if (!data) return bad(data.error().message);
        buffer = memory.allocate(*data, name);
      }
      arg = KernelArg::of(buffer);
    } else if (kind == "i32" || kind == "u32" || kind == "i64" || kind == "u64") {
      bool wide = kind[1] == '6';
      if (p.size != (wide ? 8u : 4u) || float_param)
        return bad("parameter '" + param_name(module, kernel, i) + "' is " + std::string(ptx::type_name(p.type)));
      bool ok;
      if (kind == "i32") {
        std::int32_t v;
        ok = parse_int(value, v);
        arg = KernelArg::of(v);
      } else if (kind == "u32") {
        std::uint32_t v;
        ok = parse_int(value, v);
        arg = KernelArg::of(v);
      } else if (kind == "i64") {
        std::int64_t v;
        ok = parse_int(value, v);
        arg = KernelArg::of(v);
      } else {
        std::uint64_t v;
        ok = parse_int(value, v);
        arg = KernelArg::of(v);
      }
      if (!ok) return bad("expected an integer");
    } else if (kind == "f32" || kind == "f64") {
      double v;
      if (!parse_double(value, v)) return bad("expected a number");
      bool wide = kind == "f64";
      if (p.size != (wide ? 8u : 4u) || (!float_param && p.type != ptx::Type::B32 && p.type != ptx::Type::B64))
        return bad("parameter '" + param_name(module, kernel, i) + "' is " + std::string(ptx::type_name(p.type)));
      arg = wide ? KernelArg::of(v) : KernelArg::of(static_cast<float>(v));
    } else {
      return bad("unknown kind '" + kind + "' (buf, file, tmap, i32, u32, i64, u64, f32, f64)");
    }
    out.values.push_back(std::move(arg));
    out.buffers.push_back(buffer);
  }
  return out;
}

}  // namespace warpscope::emu
