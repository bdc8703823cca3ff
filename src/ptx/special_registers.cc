// special_registers.cc: names of the PTX special registers (special_registers.def).
#include <charconv>
#include <string>

#include "ptx/ir.h"

namespace warpscope::ptx {
namespace {

struct SregRow {
  std::string_view name;
  SregShape shape;
  int count;
  int bits;
};

constexpr SregRow kSregs[] = {
#define PTX_SREG(name, text, shape, count, bits) {text, SregShape::shape, count, bits},
#include "ptx/special_registers.def"
#undef PTX_SREG
};

const SregRow& row(Sreg s) { return kSregs[static_cast<int>(s)]; }

}  // namespace

SregShape sreg_shape(Sreg s) { return row(s).shape; }
int sreg_count(Sreg s) { return row(s).count; }
int sreg_bits(Sreg s) { return row(s).bits; }

std::optional<std::pair<Sreg, std::uint8_t>> find_sreg(std::string_view name) {
  for (int i = 0; i < static_cast<int>(Sreg::kCount); ++i) {
    const SregRow& r = kSregs[i];
    const auto s = static_cast<Sreg>(i);
    if (r.shape == SregShape::Scalar || r.shape == SregShape::Vector) {
      if (name == r.name) return std::make_pair(s, std::uint8_t{0});
      continue;
    }
    // Indexed: the name, a decimal index below count, and "_64" for Indexed64.
    if (name.substr(0, r.name.size()) != r.name) continue;
    std::string_view rest = name.substr(r.name.size());
    const bool wide = r.shape == SregShape::Indexed64;
    if (wide) {
      if (rest.size() < 4 || rest.substr(rest.size() - 3) != "_64") continue;
      rest.remove_suffix(3);
    }
    if (rest.empty() || rest.size() > 2 || (rest.size() == 2 && rest[0] == '0')) continue;
    int index = -1;
    auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), index);
    if (ec != std::errc{} || end != rest.data() + rest.size() || index < 0 || index >= r.count) continue;
    return std::make_pair(s, static_cast<std::uint8_t>(index));
  }
  return std::nullopt;
}

std::string sreg_name(Sreg s, std::uint8_t component) {
  const SregRow& r = row(s);
  std::string out(r.name);
  switch (r.shape) {
    case SregShape::Scalar: break;
    case SregShape::Vector: out += component == 0 ? ".x" : component == 1 ? ".y" : component == 2 ? ".z" : ".w"; break;
    case SregShape::Indexed: out += std::to_string(component); break;
    case SregShape::Indexed64: out += std::to_string(component) + "_64"; break;
  }
  return out;
}

}  // namespace warpscope::ptx
