// args.cc: --arg specs -> kernel arguments and buffers (see args.h).
#include "emu/args.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>

namespace warpscope::emu {
namespace {

bool is_aggregate(const ptx::Variable& p) {
  return p.size != static_cast<std::uint64_t>(ptx::type_bits(p.type) / 8);
}

std::string param_type_text(const ptx::Variable& p) {
  std::string t(ptx::type_name(p.type));
  if (is_aggregate(p)) t += "[" + std::to_string(p.size) + " bytes]";
  return t;
}

// "16 GiB", "1.5 MiB", "300 bytes"
std::string human_bytes(std::uint64_t n) {
  static const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double v = static_cast<double>(n);
  int u = 0;
  while (v >= 1024 && u < 6) v /= 1024, ++u;
  if (u == 0) return std::to_string(n) + " bytes";
  char text[32];
  std::snprintf(text, sizeof text, v == static_cast<double>(static_cast<std::uint64_t>(v)) ? "%.0f %s" : "%.1f %s", v,
                units[u]);
  return text;
}

// Why `spec` cannot go to parameter `p`, or "" when it can.
std::string misfit(const ArgSpec& spec, const ptx::Variable& p) {
  const bool aggregate = is_aggregate(p), float_param = ptx::is_float(p.type);
  const std::string is = "parameter '" + p.name + "' is " + param_type_text(p);
  switch (spec.form) {
    case ArgSpec::Form::Buffer:
      if (p.size != 8 || float_param) return "a buffer needs a 64-bit pointer parameter; " + is;
      return "";
    case ArgSpec::Form::Scalar: {
      if (p.size != spec.size) return is;
      if (aggregate) return "";
      const bool float_spec = type_info(spec.type).is_float;
      const bool bits = ptx::type_name(p.type)[0] == 'b';
      if (float_spec ? !(float_param || bits) : float_param) return is;
      return "";
    }
    case ArgSpec::Form::Bytes:
    case ArgSpec::Form::Struct:
      if (p.size != spec.size)
        return is + " (" + std::to_string(p.size) + " bytes); '" + spec.kind + ":' gives " + std::to_string(spec.size) +
               " bytes" + (spec.form == ArgSpec::Form::Struct ? " as laid out (fields at their natural alignment, pad:<n> for gaps)" : "");
      return "";
    case ArgSpec::Form::Padding:
      return "pad:<n> is only a struct field";
    case ArgSpec::Form::Extension:
      return "";
  }
  return "";
}

// Builds the arguments; with no memory, only checks.
class Builder {
 public:
  Builder(const ptx::Module& module, int kernel, GlobalMemory* memory, const FileReader& reader)
      : module_(module), kernel_(kernel), memory_(memory), reader_(reader) {}

  Expected<Arguments> build(const std::vector<std::string>& specs) {
    const ptx::Function& f = module_.functions[static_cast<std::size_t>(kernel_)];
    if (specs.size() != f.params.size())
      return make_usage_error(std::to_string(specs.size()) + " arguments given; " + params_text());
    for (std::size_t i = 0; i < specs.size(); ++i) {
      const ptx::Variable& p = module_.variables[static_cast<std::size_t>(f.params[i])];
      auto bad = [&](const std::string& why, bool list = true) {
        return make_usage_error("argument " + std::to_string(i + 1) + " '" + specs[i] + "': " + why +
                                (list ? "; " + params_text() : ""));
      };
      ArgSpec spec;
      std::string why;
      if (!parse_arg_spec(specs[i], spec, why)) return bad(why);
      if (auto m = misfit(spec, p); !m.empty()) return bad(m);
      std::uint64_t buffer = 0;
      auto bytes = value_bytes(spec, p, i, -1, buffer);
      if (!bytes) {
        Error e = bytes.error();
        e.message = "argument " + std::to_string(i + 1) + " '" + specs[i] + "': " + e.message;
        return e;
      }
      KernelArg arg;
      arg.bytes = std::move(*bytes);
      out_.values.push_back(std::move(arg));
      out_.buffers.push_back(buffer);
    }
    return std::move(out_);
  }

 private:
  std::string params_text() const {
    return "kernel '" + module_.functions[static_cast<std::size_t>(kernel_)].name + "' takes " +
           describe_params(module_, kernel_);
  }

  // The argument's bytes as they go into the parameter buffer; `buffer` gets a top-level
  // buffer's address.
  Expected<std::vector<std::uint8_t>> value_bytes(const ArgSpec& spec, const ptx::Variable& p, std::size_t index,
                                                  int field, std::uint64_t& buffer) {
    switch (spec.form) {
      case ArgSpec::Form::Scalar:
      case ArgSpec::Form::Bytes:
      case ArgSpec::Form::Padding:
        return spec.bytes;
      case ArgSpec::Form::Buffer: {
        auto address = make_buffer(spec.buffer, index, field);
        if (!address) return address.error();
        buffer = *address;
        std::vector<std::uint8_t> b(8);
        for (int k = 0; k < 8; ++k) b[static_cast<std::size_t>(k)] = static_cast<std::uint8_t>(*address >> (8 * k));
        return b;
      }
      case ArgSpec::Form::Struct: {
        std::vector<std::uint8_t> b(spec.size, 0);
        for (std::size_t j = 0; j < spec.fields.size(); ++j) {
          std::uint64_t ignored = 0;
          auto field_bytes = value_bytes(spec.fields[j], p, index, static_cast<int>(j), ignored);
          if (!field_bytes) return field_bytes.error();
          std::copy(field_bytes->begin(), field_bytes->end(), b.begin() + static_cast<std::ptrdiff_t>(spec.offsets[j]));
        }
        return b;
      }
      case ArgSpec::Form::Extension: {
        if (spec.kind != "tmap" || field >= 0)
          return make_usage_error("the emulator cannot make '" + spec.kind + ":' arguments");
        std::uint64_t size = 0;
        auto address = make_buffer(spec.buffer, index, field, &size);
        if (!address) return address.error();
        buffer = *address;
        // Checking only: the map's fields against a buffer at the first address one gets.
        auto arg = tensor_map_argument(spec.text, p, memory_ ? *address : kFirstBuffer, size);
        if (!arg) return make_usage_error(arg.error().message);
        return std::move(arg->bytes);
      }
    }
    return std::vector<std::uint8_t>{};
  }

  Expected<std::uint64_t> make_buffer(const BufferRecipe& recipe, std::size_t index, int field,
                                      std::uint64_t* size_out = nullptr) {
    std::vector<std::uint8_t> data;
    std::uint64_t size = recipe.bytes;
    if (recipe.contents == BufferRecipe::Contents::File) {
      auto read = reader_(recipe.path);
      if (!read) return read.error();  // an input error: the file
      data = std::move(*read);
      size = data.size();
    }
    if (size > GlobalMemory::kMaxTotalBytes - std::min(total_, GlobalMemory::kMaxTotalBytes))
      return make_usage_error("a buffer of " + std::to_string(size) + " bytes (" + human_bytes(size) + ")" +
                              (total_ > 0 ? " after " + human_bytes(total_) + " of other buffers" : "") +
                              " is more than warpscope allows: the buffers of one launch hold at most " +
                              human_bytes(GlobalMemory::kMaxTotalBytes) +
                              " in all (the emulator keeps them in host memory); a smaller problem size "
                              "usually shows the same access pattern");
    total_ += size;
    if (size_out != nullptr) *size_out = size;
    if (memory_ == nullptr) return std::uint64_t{0};
    std::string name = buffer_name(index);
    if (field >= 0) name += "." + std::to_string(field);
    auto base = memory_->try_allocate(size, name);
    if (!base) return base.error();
    std::uint8_t* bytes = memory_->bytes(*base).data();
    switch (recipe.contents) {
      case BufferRecipe::Contents::File:
        if (!data.empty()) std::copy(data.begin(), data.end(), bytes);
        break;
      case BufferRecipe::Contents::RandomBytes:
        write_random_bytes(random_bytes_seed(1, index, field), bytes, size);
        break;
      default:
        write_contents(recipe, bytes);  // Default and Zero stay zeroed
        break;
    }
    return *base;
  }

  const ptx::Module& module_;
  int kernel_;
  GlobalMemory* memory_;
  const FileReader& reader_;
  std::uint64_t total_ = 0;
  Arguments out_;
};

}  // namespace

std::string buffer_name(std::size_t index) { return "arg" + std::to_string(index); }

Expected<std::vector<std::uint8_t>> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error("cannot read '" + path + "'");
  return std::vector<std::uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

Expected<Arguments> make_arguments(const ptx::Module& module, int kernel, const std::vector<std::string>& specs,
                                   GlobalMemory& memory, const FileReader& reader) {
  return Builder(module, kernel, &memory, reader).build(specs);
}

Status check_arguments(const ptx::Module& module, int kernel, const std::vector<std::string>& specs,
                       const FileReader& reader) {
  auto built = Builder(module, kernel, nullptr, reader).build(specs);
  if (!built) return built.error();
  return Ok{};
}

}  // namespace warpscope::emu
