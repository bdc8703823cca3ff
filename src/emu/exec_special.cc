// exec_special.cc: rcp, sqrt, rsqrt, sin, cos, ex2, lg2, tanh, testp, and the half and
// bfloat16 conversions the other executors share. Approximate forms compute in full
// precision: a value may differ from the GPU's in the last bits, never an address.
#include <cmath>

#include "emu/exec.h"
#include "emu/lanes.h"

namespace warpscope::emu {

float half_to_float(std::uint16_t h) {
  std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  std::uint32_t exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
  if (exp == 0) {
    float f = std::ldexp(static_cast<float>(man), -24);
    return sign ? -f : f;
  }
  if (exp == 31) return std::bit_cast<float>(sign | 0x7f800000u | (man << 13));
  return std::bit_cast<float>(sign | ((exp + 112) << 23) | (man << 13));
}

std::uint16_t float_to_half(float f) {
  std::uint32_t x = std::bit_cast<std::uint32_t>(f);
  std::uint16_t sign = static_cast<std::uint16_t>((x >> 16) & 0x8000u);
  if (std::isnan(f)) return static_cast<std::uint16_t>(sign | 0x7e00u);
  float a = std::fabs(f);
  if (a >= 65520.0f) return static_cast<std::uint16_t>(sign | 0x7c00u);
  if (a < 6.103515625e-05f) {  // subnormal half: multiples of 2^-24, round to nearest even
    float q = std::nearbyint(a * 16777216.0f);
    return static_cast<std::uint16_t>(sign | static_cast<std::uint16_t>(q));
  }
  std::uint32_t ax = std::bit_cast<std::uint32_t>(a);
  std::uint32_t exp = (ax >> 23) - 112, man = ax & 0x7fffffu;
  std::uint32_t h = (exp << 10) | (man >> 13);
  std::uint32_t rest = man & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;
  return static_cast<std::uint16_t>(sign | h);
}

std::uint16_t float_to_bf16(float f) {
  std::uint32_t x = std::bit_cast<std::uint32_t>(f);
  if (std::isnan(f)) return static_cast<std::uint16_t>((x >> 16) | 0x40u);
  x += 0x7fffu + ((x >> 16) & 1u);
  return static_cast<std::uint16_t>(x >> 16);
}

namespace {

using ptx::Opcode;

template <class F>
F special(Opcode op, F x) {
  switch (op) {
    case Opcode::Rcp: return F(1) / x;
    case Opcode::Sqrt: return std::sqrt(x);
    case Opcode::Rsqrt: return F(1) / std::sqrt(x);
    case Opcode::Sin: return std::sin(x);
    case Opcode::Cos: return std::cos(x);
    case Opcode::Ex2: return std::exp2(x);
    case Opcode::Lg2: return std::log2(x);
    case Opcode::Tanh: return std::tanh(x);
    default: return x;
  }
}

}  // namespace

bool exec_special(const Op& op, Warp& w, std::uint32_t mask, BlockContext& ctx) {
  if (op.opcode == Opcode::Testp) {
    if (op.type != ptx::Type::F32 && op.type != ptx::Type::F64) return unsupported(op, w, mask, ctx);
    std::uint64_t* d = w.row(op.dst[0]);
    const std::uint64_t* a = w.row(op.src[0]);
    for_lanes(mask, [&](int l) {
      double x = op.type == ptx::Type::F32 ? from_bits<float>(a[l]) : from_bits<double>(a[l]);
      int c = op.type == ptx::Type::F32 ? std::fpclassify(from_bits<float>(a[l])) : std::fpclassify(x);
      bool r = false;
      switch (op.subop) {
        case ptx::SubOp::Finite: r = std::isfinite(x); break;
        case ptx::SubOp::Infinite: r = std::isinf(x); break;
        case ptx::SubOp::Number: r = !std::isnan(x); break;
        case ptx::SubOp::NotANumber: r = std::isnan(x); break;
        case ptx::SubOp::Normal: r = c == FP_NORMAL; break;
        case ptx::SubOp::Subnormal: r = c == FP_SUBNORMAL; break;
        default: break;
      }
      d[l] = r ? 1u : 0u;
    });
    return true;
  }
  std::uint64_t* d = w.row(op.dst[0]);
  const std::uint64_t* a = w.row(op.src[0]);
  bool ftz = op.has(ptx::flag::Ftz);
  switch (op.type) {
    case ptx::Type::F32:
      for_lanes(mask, [&](int l) {
        float x = from_bits<float>(a[l]);
        if (ftz && std::fpclassify(x) == FP_SUBNORMAL) x = std::copysign(0.f, x);
        d[l] = to_bits<float>(special<float>(op.opcode, x));
      });
      return true;
    case ptx::Type::F64:
      for_lanes(mask, [&](int l) { d[l] = to_bits<double>(special<double>(op.opcode, from_bits<double>(a[l]))); });
      return true;
    case ptx::Type::F16:
    case ptx::Type::BF16: {
      bool bf = op.type == ptx::Type::BF16;
      for_lanes(mask, [&](int l) {
        auto h = static_cast<std::uint16_t>(a[l]);
        float r = special<float>(op.opcode, bf ? bf16_to_float(h) : half_to_float(h));
        d[l] = bf ? float_to_bf16(r) : float_to_half(r);
      });
      return true;
    }
    default:
      return unsupported(op, w, mask, ctx);
  }
}

}  // namespace warpscope::emu
