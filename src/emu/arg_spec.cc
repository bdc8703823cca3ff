// arg_spec.cc: parsing --arg specs and making buffer contents (see arg_spec.h). Plain C++17:
// tools/ptxlaunch compiles this file too.
#include "emu/arg_spec.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace warpscope::emu {

namespace {

constexpr ScalarTypeInfo kTypes[] = {
    {"i8", 1, false, true},   {"u8", 1, false, false},  {"i16", 2, false, true}, {"u16", 2, false, false},
    {"i32", 4, false, true},  {"u32", 4, false, false}, {"i64", 8, false, true}, {"u64", 8, false, false},
    {"f16", 2, true, true},   {"bf16", 2, true, true},  {"f32", 4, true, true},  {"f64", 8, true, true},
    {"bool", 1, false, false},
};

std::uint64_t splitmix64(std::uint64_t state) {
  std::uint64_t z = state;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
constexpr std::uint64_t kGolden = 0x9E3779B97F4A7C15ull;

void put_le(std::uint64_t v, unsigned bytes, std::uint8_t* out) {
  for (unsigned i = 0; i < bytes; ++i) out[i] = static_cast<std::uint8_t>(v >> (8 * i));
}

// A double as the nearest float; beyond float's range an infinity (a plain cast would be
// undefined there).
float to_float(double v) {
  constexpr double kRoundsToInfinity = 0x1.ffffffp+127;  // FLT_MAX plus half its last unit
  if (v >= kRoundsToInfinity) return std::numeric_limits<float>::infinity();
  if (v <= -kRoundsToInfinity) return -std::numeric_limits<float>::infinity();
  return static_cast<float>(v);
}

// A float value's bytes in `type` (f16, bf16, f32, f64).
void put_float(double v, ScalarType type, std::uint8_t* out) {
  switch (type) {
    case ScalarType::F16: put_le(half_bits_of(to_float(v)), 2, out); break;
    case ScalarType::BF16: put_le(bfloat16_bits_of(to_float(v)), 2, out); break;
    case ScalarType::F32: {
      const float f = to_float(v);
      std::memcpy(out, &f, 4);
      break;
    }
    default: std::memcpy(out, &v, 8); break;
  }
}

std::string range_text(ScalarType type) {
  const ScalarTypeInfo& t = type_info(type);
  const unsigned bits = t.bytes * 8;
  if (t.is_signed)
    return bits == 64 ? std::string("-9223372036854775808 to 9223372036854775807")
                      : std::to_string(-(std::int64_t{1} << (bits - 1))) + " to " +
                            std::to_string((std::int64_t{1} << (bits - 1)) - 1);
  return "0 to " + (bits == 64 ? std::string("18446744073709551615") : std::to_string((std::uint64_t{1} << bits) - 1));
}

// An integer of `type`: decimal (optionally signed) or 0x hex; its two's complement bits.
bool parse_integer(const std::string& text, ScalarType type, std::uint64_t& out, std::string& error) {
  const ScalarTypeInfo& t = type_info(type);
  if (type == ScalarType::Bool) {
    if (text == "true" || text == "1") out = 1;
    else if (text == "false" || text == "0") out = 0;
    else return error = "'" + text + "' is not a bool (true, false, 1 or 0)", false;
    return true;
  }
  std::size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) negative = text[i++] == '-';
  unsigned base = 10;
  if (text.compare(i, 2, "0x") == 0 || text.compare(i, 2, "0X") == 0) {
    base = 16;
    i += 2;
  }
  if (i >= text.size()) return error = "'" + text + "' is not an integer", false;
  std::uint64_t magnitude = 0;
  bool overflow = false;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    unsigned d;
    if (c >= '0' && c <= '9') d = static_cast<unsigned>(c - '0');
    else if (base == 16 && c >= 'a' && c <= 'f') d = static_cast<unsigned>(c - 'a' + 10);
    else if (base == 16 && c >= 'A' && c <= 'F') d = static_cast<unsigned>(c - 'A' + 10);
    else return error = "'" + text + "' is not an integer", false;
    if (magnitude > (std::numeric_limits<std::uint64_t>::max() - d) / base) overflow = true;
    magnitude = magnitude * base + d;
  }
  const unsigned bits = t.bytes * 8;
  bool in_range = !overflow;
  if (in_range && t.is_signed) {
    const std::uint64_t limit = std::uint64_t{1} << (bits - 1);  // |min|; max is limit - 1
    in_range = negative ? magnitude <= limit : magnitude < limit;
  } else if (in_range) {
    in_range = (!negative || magnitude == 0) && (bits == 64 || magnitude < (std::uint64_t{1} << bits));
  }
  if (!in_range) return error = text + " is out of range for " + t.name + " (" + range_text(type) + ")", false;
  out = negative ? ~magnitude + 1 : magnitude;
  return true;
}

// True when the bytes `put_float` wrote for `type` are an infinity or a NaN.
bool not_finite(const std::uint8_t* bytes, ScalarType type) {
  const unsigned hi = bytes[1] * 256u + bytes[0];
  switch (type) {
    case ScalarType::F16: return (hi & 0x7c00u) == 0x7c00u;
    case ScalarType::BF16: return (hi & 0x7f80u) == 0x7f80u;
    case ScalarType::F32: {
      float f;
      std::memcpy(&f, bytes, 4);
      return !std::isfinite(f);
    }
    default: {
      double d;
      std::memcpy(&d, bytes, 8);
      return !std::isfinite(d);
    }
  }
}

bool parse_float(const std::string& text, ScalarType type, double& out, std::string& error) {
  errno = 0;
  char* end = nullptr;
  out = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || std::isspace(static_cast<unsigned char>(text[0])))
    return error = "'" + text + "' is not a number", false;
  std::uint8_t converted[8];
  put_float(out, type, converted);
  const bool overflow = errno == ERANGE && std::isinf(out);
  if (overflow || (std::isfinite(out) && not_finite(converted, type)))
    return error = text + " is out of range for " + type_info(type).name, false;
  return true;
}

// A scalar value's bytes.
bool scalar_bytes(const std::string& text, ScalarType type, std::vector<std::uint8_t>& out, std::string& error) {
  const ScalarTypeInfo& t = type_info(type);
  out.assign(t.bytes, 0);
  if (t.is_float) {
    double v;
    if (!parse_float(text, type, v, error)) return false;
    put_float(v, type, out.data());
    return true;
  }
  std::uint64_t v;
  if (!parse_integer(text, type, v, error)) return false;
  put_le(v, t.bytes, out.data());
  return true;
}

// Splits at ':' (at most `max` parts; the last keeps any further colons).
std::vector<std::string> split(const std::string& text, char sep, std::size_t max = 0) {
  std::vector<std::string> parts;
  std::size_t from = 0;
  for (;;) {
    const std::size_t at = text.find(sep, from);
    if (at == std::string::npos || (max != 0 && parts.size() + 1 == max)) {
      parts.push_back(text.substr(from));
      return parts;
    }
    parts.push_back(text.substr(from, at - from));
    from = at + 1;
  }
}

bool parse_type(const std::string& text, ScalarType& out, std::string& error) {
  if (parse_scalar_type(text, out)) return true;
  error = "'" + text + "' is not a type (i8 u8 i16 u16 i32 u32 i64 u64 f16 bf16 f32 f64 bool)";
  return false;
}

bool parse_count(const std::string& text, const char* what, std::uint64_t& out, std::string& error) {
  if (!parse_size(text, out)) {
    error = std::string(what) + " '" + text + "' is not a count (an integer, optionally with K, M, G or T: powers of 1024)";
    return false;
  }
  return true;
}

using Parser = bool (*)(const std::string& kind, const std::string& value, ArgSpec& out, std::string& error);

bool parse_scalar(const std::string& kind, const std::string& value, ArgSpec& out, std::string& error) {
  parse_scalar_type(kind, out.type);
  out.form = ArgSpec::Form::Scalar;
  if (!scalar_bytes(value, out.type, out.bytes, error)) return false;
  out.size = out.align = out.bytes.size();
  return true;
}

void make_buffer(ArgSpec& out, BufferRecipe::Contents contents) {
  out.form = ArgSpec::Form::Buffer;
  out.buffer.contents = contents;
  out.size = out.align = 8;
}

bool parse_buf(const std::string&, const std::string& value, ArgSpec& out, std::string& error) {
  const auto parts = split(value, ':');
  if (parts.size() > 2) return error = "expected buf:<size>[:zero|:random]", false;
  make_buffer(out, BufferRecipe::Contents::Default);
  if (parts.size() == 2) {
    if (parts[1] == "zero") out.buffer.contents = BufferRecipe::Contents::Zero;
    else if (parts[1] == "random") out.buffer.contents = BufferRecipe::Contents::RandomBytes;
    else return error = "unknown fill '" + parts[1] + "' (buf:<size>:zero or buf:<size>:random)", false;
  }
  if (!parse_count(parts[0], "size", out.buffer.bytes, error)) return false;
  if (out.buffer.bytes == 0) return error = "a buffer needs at least one byte", false;
  return true;
}

bool parse_file(const std::string&, const std::string& value, ArgSpec& out, std::string& error) {
  if (value.empty()) return error = "expected file:<path>", false;
  make_buffer(out, BufferRecipe::Contents::File);
  out.buffer.path = value;
  return true;
}

bool parse_fill(const std::string&, const std::string& value, ArgSpec& out, std::string& error) {
  const auto parts = split(value, ':', 3);
  if (parts.size() < 2) return error = "expected fill:<size>[:<type>]:<value>", false;
  make_buffer(out, BufferRecipe::Contents::Fill);
  BufferRecipe& b = out.buffer;
  if (!parse_count(parts[0], "size", b.bytes, error)) return false;
  if (parts.size() == 3 && !parse_type(parts[1], b.type, error)) return false;
  if (!scalar_bytes(parts.back(), b.type, b.element, error)) return false;
  if (b.bytes == 0 || b.bytes % b.element.size() != 0)
    return error = "size " + std::to_string(b.bytes) + " is not a positive multiple of " +
                   std::to_string(b.element.size()) + " bytes (" + type_info(b.type).name + ")",
           false;
  return true;
}

bool parse_iota(const std::string&, const std::string& value, ArgSpec& out, std::string& error) {
  const auto parts = split(value, ':');
  if (parts.size() < 2 || parts.size() > 4) return error = "expected iota:<count>:<type>[:<start>[:<step>]]", false;
  make_buffer(out, BufferRecipe::Contents::Iota);
  BufferRecipe& b = out.buffer;
  std::uint64_t count;
  if (!parse_count(parts[0], "count", count, error) || !parse_type(parts[1], b.type, error)) return false;
  const ScalarTypeInfo& t = type_info(b.type);
  if (count == 0 || count > (std::uint64_t{1} << 40) / t.bytes) return error = "count must be 1 to 2^40 bytes' worth", false;
  b.bytes = count * t.bytes;
  for (std::size_t i = 2; i < parts.size(); ++i) {
    if (t.is_float) {
      double v;
      if (!parse_float(parts[i], ScalarType::F64, v, error)) return false;
      (i == 2 ? b.start : b.step) = v;
    } else {
      std::uint64_t v;
      // Start and step are any 64-bit integers; the values wrap as the type does.
      if (!parse_integer(parts[i], ScalarType::I64, v, error)) return false;
      (i == 2 ? b.int_start : b.int_step) = static_cast<std::int64_t>(v);
    }
  }
  return true;
}

bool parse_rand(const std::string&, const std::string& value, ArgSpec& out, std::string& error) {
  const auto parts = split(value, ':');
  if (parts.size() != 3 && parts.size() != 5)
    return error = "expected rand:<count>:<type>:<seed>[:<lo>:<hi>]", false;
  make_buffer(out, BufferRecipe::Contents::Random);
  BufferRecipe& b = out.buffer;
  std::uint64_t count;
  if (!parse_count(parts[0], "count", count, error) || !parse_type(parts[1], b.type, error)) return false;
  const ScalarTypeInfo& t = type_info(b.type);
  if (count == 0 || count > (std::uint64_t{1} << 40) / t.bytes) return error = "count must be 1 to 2^40 bytes' worth", false;
  b.bytes = count * t.bytes;
  if (!parse_integer(parts[2], ScalarType::U64, b.seed, error)) return error = "seed: " + error, false;
  const unsigned bits = t.bytes * 8;
  if (t.is_float) {
    b.lo = 0, b.hi = 1;
  } else if (b.type == ScalarType::Bool) {
    b.int_lo = 0, b.int_span = 2;
  } else {
    b.int_lo = !t.is_signed ? 0 : bits == 64 ? std::numeric_limits<std::int64_t>::min() : -(std::int64_t{1} << (bits - 1));
    b.int_span = bits == 64 ? 0 : std::uint64_t{1} << bits;
  }
  if (parts.size() == 5) {
    b.has_range = true;
    if (t.is_float) {
      if (!parse_float(parts[3], ScalarType::F64, b.lo, error) || !parse_float(parts[4], ScalarType::F64, b.hi, error))
        return false;
      if (!(b.lo <= b.hi)) return error = "lo " + parts[3] + " is above hi " + parts[4], false;
    } else {
      std::uint64_t lo, hi;
      if (!parse_integer(parts[3], b.type, lo, error) || !parse_integer(parts[4], b.type, hi, error)) return false;
      // Compare as the type does (sign-extended for signed types).
      auto widen = [&](std::uint64_t v) -> long double {
        if (t.is_signed && bits < 64 && (v >> (bits - 1)) & 1) v |= ~std::uint64_t{0} << bits;
        return t.is_signed ? static_cast<long double>(static_cast<std::int64_t>(v)) : static_cast<long double>(v);
      };
      if (widen(lo) > widen(hi)) return error = "lo " + parts[3] + " is above hi " + parts[4], false;
      std::uint64_t lo64 = lo;
      if (t.is_signed && bits < 64 && (lo >> (bits - 1)) & 1) lo64 |= ~std::uint64_t{0} << bits;
      std::uint64_t hi64 = hi;
      if (t.is_signed && bits < 64 && (hi >> (bits - 1)) & 1) hi64 |= ~std::uint64_t{0} << bits;
      b.int_lo = static_cast<std::int64_t>(lo64);
      b.int_span = hi64 - lo64 + 1;  // 0: the whole 64-bit range
    }
  }
  return true;
}

bool parse_hex(const std::string& text, std::vector<std::uint8_t>& out, std::string& error) {
  std::string digits;
  for (std::size_t i = text.compare(0, 2, "0x") == 0 ? 2 : 0; i < text.size(); ++i)
    if (text[i] != '_') digits += text[i];
  if (digits.empty() || digits.size() % 2 != 0)
    return error = "expected an even number of hex digits, e.g. bytes:0100000002000000", false;
  out.clear();
  for (std::size_t i = 0; i < digits.size(); i += 2) {
    auto nibble = [](char c) -> int {
      if (c >= '0' && c <= '9') return c - '0';
      if (c >= 'a' && c <= 'f') return c - 'a' + 10;
      if (c >= 'A' && c <= 'F') return c - 'A' + 10;
      return -1;
    };
    const int hi = nibble(digits[i]), lo = nibble(digits[i + 1]);
    if (hi < 0 || lo < 0) return error = "'" + text + "' is not hex digits", false;
    out.push_back(static_cast<std::uint8_t>(hi * 16 + lo));
  }
  return true;
}

bool parse_bytes(const std::string&, const std::string& value, ArgSpec& out, std::string& error) {
  out.form = ArgSpec::Form::Bytes;
  if (!parse_hex(value, out.bytes, error)) return false;
  out.size = out.bytes.size();
  out.align = 1;
  return true;
}

bool parse_pad(const std::string&, const std::string& value, ArgSpec& out, std::string& error) {
  std::uint64_t n;
  if (!parse_count(value, "pad", n, error)) return false;
  if (n == 0 || n > 4096) return error = "pad:<n> takes 1 to 4096 bytes", false;
  out.form = ArgSpec::Form::Padding;
  out.bytes.assign(n, 0);
  out.size = n;
  out.align = 1;
  return true;
}

bool parse_struct(const std::string&, const std::string& value, ArgSpec& out, std::string& error) {
  out.form = ArgSpec::Form::Struct;
  if (value.empty()) return error = "expected struct:<field>,<field>,... (e.g. struct:i32:4,f32:0.5,buf:1K)", false;
  std::uint64_t offset = 0;
  out.align = 1;
  for (const std::string& text : split(value, ',')) {
    ArgSpec field;
    std::string why;
    if (!parse_arg_spec(text, field, why)) return error = "field " + std::to_string(out.fields.size() + 1) + ": " + why, false;
    if (field.form == ArgSpec::Form::Struct || field.form == ArgSpec::Form::Extension)
      return error = "field '" + text + "': a struct's fields are scalars, bytes:, pad: or buffers", false;
    offset = (offset + field.align - 1) / field.align * field.align;
    out.offsets.push_back(offset);
    offset += field.size;
    if (field.align > out.align) out.align = field.align;
    out.fields.push_back(std::move(field));
  }
  out.size = (offset + out.align - 1) / out.align * out.align;
  return true;
}

// tmap:<buffer>,dtype=..,dims=..,...: a CUtensorMap over a buffer. The map's fields are
// tensor_map_spec.h's to read; here the tensor's buffer (any buffer spec) and the parameter:
// 128 bytes, 64-byte aligned. Each tool encodes the map (Form::Extension).
bool parse_tmap(const std::string&, const std::string& value, ArgSpec& out, std::string& error) {
  const std::size_t comma = value.find(',');
  if (comma == std::string::npos)
    return error = "expected tmap:<buffer>,dtype=<t>,dims=..,strides=..,box=..[,swizzle=..]", false;
  ArgSpec tensor;
  if (!parse_arg_spec(value.substr(0, comma), tensor, error)) return error = "the tensor's buffer: " + error, false;
  if (tensor.form != ArgSpec::Form::Buffer)
    return error = "the tensor's memory comes first, as a buffer (buf:, file:, fill:, iota:, rand:)", false;
  out.form = ArgSpec::Form::Extension;
  out.buffer = tensor.buffer;
  out.size = 128;
  out.align = 64;
  return true;
}

struct KindRow {
  ArgKindRow row;
  Parser parse;
  bool listed;  // shown in help (aliases are not)
};

const std::vector<KindRow>& kind_table() {
  static const std::vector<KindRow> rows = [] {
    std::vector<KindRow> r;
    for (const ScalarTypeInfo& t : kTypes)
      r.push_back({{t.name, t.name, "a scalar"}, parse_scalar, true});
    for (const char* alias : {"s8", "s16", "s32", "s64"}) r.push_back({{alias, alias, "a scalar"}, parse_scalar, false});
    r.push_back({{"buf", "buf:<size>[:zero|:random]", "a buffer, zeroed (ptxlaunch: pseudo-random bytes unless :zero)"},
                 parse_buf, true});
    r.push_back({{"file", "file:<path>", "a buffer holding the file's bytes"}, parse_file, true});
    r.push_back({{"fill", "fill:<size>[:<type>]:<value>", "a buffer of <size> bytes, every element <value> (type u8 when left out)"},
                 parse_fill, true});
    r.push_back({{"iota", "iota:<count>:<type>[:<start>[:<step>]]", "a buffer of <count> elements 0, 1, 2, ... (or start, start+step, ...)"},
                 parse_iota, true});
    r.push_back({{"rand", "rand:<count>:<type>:<seed>[:<lo>:<hi>]", "a buffer of <count> pseudo-random elements"},
                 parse_rand, true});
    r.push_back({{"bytes", "bytes:<hex>", "a by-value parameter's bytes (a struct), little-endian as in memory"},
                 parse_bytes, true});
    r.push_back({{"struct", "struct:<field>,<field>,...", "a by-value struct: scalars, bytes:, pad:<n> and buffers laid out as C does"},
                 parse_struct, true});
    r.push_back({{"tmap", "tmap:<buffer>,dtype=..,dims=..,strides=..,box=..[,swizzle=..]",
                  "a CUtensorMap over a buffer (cuTensorMapEncodeTiled's fields: docs/hopper.md)"},
                 parse_tmap, true});
    r.push_back({{"pad", "pad:<n>", "(a struct field) n zero bytes"}, parse_pad, false});
    return r;
  }();
  return rows;
}

}  // namespace

const ScalarTypeInfo& type_info(ScalarType type) { return kTypes[static_cast<int>(type)]; }

bool parse_scalar_type(const std::string& text, ScalarType& out) {
  for (int i = 0; i < static_cast<int>(sizeof kTypes / sizeof kTypes[0]); ++i)
    if (text == kTypes[i].name) return out = static_cast<ScalarType>(i), true;
  static const std::pair<const char*, ScalarType> aliases[] = {
      {"s8", ScalarType::I8}, {"s16", ScalarType::I16}, {"s32", ScalarType::I32}, {"s64", ScalarType::I64}};
  for (const auto& [name, type] : aliases)
    if (text == name) return out = type, true;
  return false;
}

bool parse_size(const std::string& text, std::uint64_t& out) {
  if (text.empty()) return false;
  std::string digits = text;
  unsigned shift = 0;
  switch (digits.back()) {
    case 'K': case 'k': shift = 10; break;
    case 'M': case 'm': shift = 20; break;
    case 'G': case 'g': shift = 30; break;
    case 'T': case 't': shift = 40; break;
    default: break;
  }
  if (shift != 0) digits.pop_back();
  std::string error;
  std::uint64_t v;
  if (digits.empty() || digits[0] == '-' || digits[0] == '+' || !parse_integer(digits, ScalarType::U64, v, error)) return false;
  if (shift != 0 && v > (std::numeric_limits<std::uint64_t>::max() >> shift)) return false;
  out = v << shift;
  return true;
}

const std::vector<ArgKindRow>& arg_kinds() {
  static const std::vector<ArgKindRow> rows = [] {
    std::vector<ArgKindRow> r;
    for (const KindRow& k : kind_table())
      if (k.listed) r.push_back(k.row);
    return r;
  }();
  return rows;
}

std::string arg_kind_names() {
  std::string out;
  for (const ArgKindRow& r : arg_kinds()) out += (out.empty() ? "" : ", ") + std::string(r.name);
  return out;
}

bool parse_arg_spec(const std::string& text, ArgSpec& out, std::string& error) {
  out = ArgSpec{};
  out.text = text;
  const std::size_t colon = text.find(':');
  out.kind = text.substr(0, colon);
  out.value = colon == std::string::npos ? "" : text.substr(colon + 1);
  for (const KindRow& k : kind_table())
    if (out.kind == k.row.name) {
      if (colon == std::string::npos) return error = "expected " + std::string(k.row.syntax), false;
      return k.parse(out.kind, out.value, out, error);
    }
  error = colon == std::string::npos ? "expected KIND:VALUE (kinds: " + arg_kind_names() + ")"
                                     : "unknown kind '" + out.kind + "' (" + arg_kind_names() + ")";
  return false;
}

void write_random_bytes(std::uint64_t seed, std::uint8_t* out, std::uint64_t bytes) {
  std::uint64_t state = seed;
  for (std::uint64_t i = 0; i < bytes; i += 8) {
    const std::uint64_t z = splitmix64(state += kGolden);
    put_le(z, static_cast<unsigned>(bytes - i < 8 ? bytes - i : 8), out + i);
  }
}

std::uint64_t random_bytes_seed(std::uint64_t launch_seed, std::size_t index, int field) {
  return launch_seed * 1000003ull + index + (field < 0 ? 0 : (static_cast<std::uint64_t>(field) + 1) << 16);
}

void write_contents(const BufferRecipe& b, std::uint8_t* out) {
  const ScalarTypeInfo& t = type_info(b.type);
  const std::uint64_t n = b.bytes / t.bytes;
  switch (b.contents) {
    case BufferRecipe::Contents::Fill:
      for (std::uint64_t at = 0; at + b.element.size() <= b.bytes; at += b.element.size())
        std::memcpy(out + at, b.element.data(), b.element.size());
      return;
    case BufferRecipe::Contents::Iota:
      for (std::uint64_t i = 0; i < n; ++i) {
        if (t.is_float) put_float(b.start + static_cast<double>(i) * b.step, b.type, out + i * t.bytes);
        else
          put_le(static_cast<std::uint64_t>(b.int_start) + i * static_cast<std::uint64_t>(b.int_step), t.bytes,
                 out + i * t.bytes);
      }
      return;
    case BufferRecipe::Contents::Random: {
      std::uint64_t state = b.seed;
      for (std::uint64_t i = 0; i < n; ++i) {
        const std::uint64_t x = splitmix64(state += kGolden);
        if (t.is_float) {
          const double u = static_cast<double>(x >> 11) * 0x1.0p-53;
          put_float(b.lo + (b.hi - b.lo) * u, b.type, out + i * t.bytes);
        } else {
          const std::uint64_t v = static_cast<std::uint64_t>(b.int_lo) + (b.int_span == 0 ? x : x % b.int_span);
          put_le(v, t.bytes, out + i * t.bytes);
        }
      }
      return;
    }
    default:
      return;  // zero (the buffer arrives zeroed), or the caller's
  }
}

std::uint16_t half_bits_of(float value) {
  std::uint32_t x;
  std::memcpy(&x, &value, 4);
  const std::uint32_t sign = (x >> 16) & 0x8000u;
  const std::uint32_t exponent = (x >> 23) & 0xffu;
  std::uint32_t mantissa = x & 0x7fffffu;
  if (exponent == 0xff) return static_cast<std::uint16_t>(sign | 0x7c00u | (mantissa ? 0x200u | (mantissa >> 13) : 0));
  const int e = static_cast<int>(exponent) - 127 + 15;
  if (e >= 31) return static_cast<std::uint16_t>(sign | 0x7c00u);
  if (e <= 0) {  // a subnormal half, or zero
    if (e < -10) return static_cast<std::uint16_t>(sign);
    mantissa |= 0x800000u;
    const unsigned shift = static_cast<unsigned>(14 - e);
    std::uint32_t half = mantissa >> shift;
    const std::uint32_t rest = mantissa & ((1u << shift) - 1), halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (half & 1u))) ++half;
    return static_cast<std::uint16_t>(sign | half);
  }
  std::uint32_t half = sign | (static_cast<std::uint32_t>(e) << 10) | (mantissa >> 13);
  const std::uint32_t rest = mantissa & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) ++half;  // a carry into the exponent is right
  return static_cast<std::uint16_t>(half);
}

std::uint16_t bfloat16_bits_of(float value) {
  std::uint32_t x;
  std::memcpy(&x, &value, 4);
  if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((x >> 16) | 0x40u);  // a quiet NaN
  x += 0x7fffu + ((x >> 16) & 1u);
  return static_cast<std::uint16_t>(x >> 16);
}

}  // namespace warpscope::emu
