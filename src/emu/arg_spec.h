// arg_spec.h: the --arg grammar, shared by warpscope and tools/ptxlaunch (which compiles
// this file on its own: plain C++17, no other warpscope header), so a launch line means the
// same bytes to the emulator and to the GPU.
//
//   SPEC := KIND ':' VALUE                     one kernel parameter, in parameter order
//   scalars   i8 u8 i16 u16 i32 u32 i64 u64 f16 bf16 f32 f64 bool : <value>
//             (s8 s16 s32 s64 are i8 ... i64; integers decimal or 0x..; bool true/false/1/0)
//   buffers   buf:<size>[:zero|:random]       zeroed (warpscope) / pseudo-random (ptxlaunch)
//             file:<path>                     the file's bytes
//             fill:<size>[:<type>]:<value>    every element <value> (type u8 when left out)
//             iota:<count>:<type>[:<start>[:<step>]]   start, start+step, ... (0, 1, 2, ...)
//             rand:<count>:<type>:<seed>[:<lo>:<hi>]   pseudo-random, integers in [lo, hi],
//                                             floats in [lo, hi) (default: the type's range, [0, 1))
//   by value  bytes:<hex>                     the parameter's bytes, e.g. bytes:0100000002000000
//             struct:<field>,<field>,...      fields laid out as C does (each at its natural
//                                             alignment, the size rounded up to the largest);
//                                             a field is a scalar, bytes:<hex>, pad:<n>, or a
//                                             buffer (an 8-byte pointer), e.g.
//                                             struct:i32:4,f32:0.5,buf:1K,i16:3  (24 bytes)
//   tensor map tmap:<buffer>,dtype=..,dims=..,strides=..,box=..[,...]   a CUtensorMap over
//                                             a buffer of any kind above (tensor_map_spec.h
//                                             reads the fields; each tool encodes the map)
//   <size>, <count>: an integer with an optional K, M, G or T suffix (powers of 1024).
//
// Random values: element i takes x_i = splitmix64(seed + (i + 1) * 0x9E3779B97F4A7C15), the
// n-th output of splitmix64 seeded with `seed`; integers are lo + x_i mod (hi - lo + 1), floats
// lo + (hi - lo) * (x_i >> 11) * 2^-53, bool x_i & 1. f16 and bf16 round to nearest even.
//
// Adding a kind: a row in kind_table (arg_spec.cc) with its parser. A kind whose bytes each
// tool makes its own way (a tensor map: the emulator encodes it, ptxlaunch asks the driver)
// parses to Form::Extension, keeping its text, with its buffer in `buffer`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace warpscope::emu {

enum class ScalarType : std::uint8_t { I8, U8, I16, U16, I32, U32, I64, U64, F16, BF16, F32, F64, Bool };

struct ScalarTypeInfo {
  const char* name;  // "i32"
  unsigned bytes;
  bool is_float;
  bool is_signed;
};
const ScalarTypeInfo& type_info(ScalarType type);
// "i32", "s32", "f16", "bool", ... -> the type; false when unknown.
bool parse_scalar_type(const std::string& text, ScalarType& out);

// How a buffer's bytes are made.
struct BufferRecipe {
  enum class Contents : std::uint8_t {
    Default,      // buf:<size>: zeroed by warpscope, pseudo-random bytes in ptxlaunch
    Zero,         // buf:<size>:zero
    RandomBytes,  // buf:<size>:random: ptxlaunch's bytes (splitmix64, its seed and the argument's index)
    File,         // file:<path>
    Fill,
    Iota,
    Random,
  };
  Contents contents = Contents::Default;
  std::uint64_t bytes = 0;  // the size (File: 0 until the file is read)
  std::string path;         // File
  ScalarType type = ScalarType::U8;
  std::vector<std::uint8_t> element;  // Fill: one element's bytes
  double start = 0, step = 1;         // Iota (floats)
  std::int64_t int_start = 0, int_step = 1;  // Iota (integers)
  std::uint64_t seed = 0;             // Random
  bool has_range = false;             // Random: lo, hi given
  double lo = 0, hi = 1;              // Random floats
  std::int64_t int_lo = 0;            // Random integers (as two's complement)
  std::uint64_t int_span = 0;         // hi - lo + 1 (0: the whole 64-bit range)
};

struct ArgSpec {
  enum class Form : std::uint8_t { Scalar, Buffer, Bytes, Struct, Padding, Extension };
  std::string text;  // as written
  std::string kind;  // "i32", "buf", "struct", ...
  std::string value; // the text after "kind:"
  Form form = Form::Scalar;
  ScalarType type = ScalarType::U8;  // Scalar
  std::vector<std::uint8_t> bytes;   // Scalar, Bytes, Padding: the value's bytes (little-endian)
  BufferRecipe buffer;               // Buffer; Extension (tmap): the tensor's buffer
  std::vector<ArgSpec> fields;       // Struct
  std::vector<std::uint64_t> offsets;  // Struct: each field's byte offset
  std::uint64_t size = 0;            // bytes as a parameter: scalar size, 8 for a buffer, struct size
  std::uint64_t align = 1;           // alignment as a struct field
};

// One --arg. False with `error` set ("i32:99999999999: 99999999999 is out of range for i32
// (-2147483648 to 2147483647)") when the text is not a valid spec.
bool parse_arg_spec(const std::string& text, ArgSpec& out, std::string& error);

// The kinds, for help texts and messages: "i8 u8 ... struct".
struct ArgKindRow {
  const char* name;
  const char* syntax;   // "fill:<size>[:<type>]:<value>"
  const char* summary;  // "a buffer, every element <value>"
};
const std::vector<ArgKindRow>& arg_kinds();
std::string arg_kind_names();  // "i8, u8, ..., struct"

// Writes a buffer's contents into `out` (bytes: recipe.bytes, already zeroed) for Zero, Fill,
// Iota and Random. Default, RandomBytes and File are the caller's (they differ per tool).
void write_contents(const BufferRecipe& recipe, std::uint8_t* out);

// ptxlaunch's pseudo-random bytes (buf:<size> there, buf:<size>:random in both tools), and
// the seed of argument `index` (0-based; `field` of a struct, -1 for none) under --seed S.
void write_random_bytes(std::uint64_t seed, std::uint8_t* out, std::uint64_t bytes);
std::uint64_t random_bytes_seed(std::uint64_t launch_seed, std::size_t index, int field);

// "256K" -> 262144; false when not a count (or it overflows 64 bits).
bool parse_size(const std::string& text, std::uint64_t& out);

// IEEE half and bfloat16 bits of a float, rounding to nearest even (as emu/lanes.h, which
// ptxlaunch cannot include).
std::uint16_t half_bits_of(float value);
std::uint16_t bfloat16_bits_of(float value);

}  // namespace warpscope::emu
