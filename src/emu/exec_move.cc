// exec_move.cc: mov (incl. pack/unpack of vectors), cvt between every integer and float
// type with PTX's rounding modes and saturation, cvta and isspacep (see memory.h),
// createpolicy.
#include <cfenv>
#include <cmath>
#include <limits>

#include "emu/exec.h"
#include "emu/lanes.h"
#include "emu/tensor_values.h"

namespace warpscope::emu {
namespace {

using ptx::Opcode;
using ptx::Rounding;
using ptx::Type;

struct Number {
  bool is_float = false;
  double f = 0;
  __int128 i = 0;
};

Number read_number(Type t, std::uint64_t v) {
  Number n;
  switch (t) {
    case Type::F16: n.is_float = true; n.f = half_to_float(static_cast<std::uint16_t>(v)); return n;
    case Type::BF16: n.is_float = true; n.f = bf16_to_float(static_cast<std::uint16_t>(v)); return n;
    case Type::F32: case Type::TF32: n.is_float = true; n.f = from_bits<float>(v); return n;
    case Type::F64: n.is_float = true; n.f = from_bits<double>(v); return n;
    case Type::S8: n.i = static_cast<std::int8_t>(v); return n;
    case Type::S16: n.i = static_cast<std::int16_t>(v); return n;
    case Type::S32: n.i = static_cast<std::int32_t>(v); return n;
    case Type::S64: n.i = static_cast<std::int64_t>(v); return n;
    case Type::U8: case Type::B8: n.i = static_cast<std::uint8_t>(v); return n;
    case Type::U16: case Type::B16: n.i = static_cast<std::uint16_t>(v); return n;
    case Type::U32: case Type::B32: n.i = static_cast<std::uint32_t>(v); return n;
    default: n.i = static_cast<std::uint64_t>(v); return n;
  }
}

int fe_mode(Rounding r) {
  switch (r) {
    case Rounding::Rz: case Rounding::Rzi: return FE_TOWARDZERO;
    case Rounding::Rm: case Rounding::Rmi: return FE_DOWNWARD;
    case Rounding::Rp: case Rounding::Rpi: return FE_UPWARD;
    default: return FE_TONEAREST;
  }
}

double round_integral(double x, Rounding r) {
  switch (r) {
    case Rounding::Rni: return std::nearbyint(x);
    case Rounding::Rzi: return std::trunc(x);
    case Rounding::Rmi: return std::floor(x);
    case Rounding::Rpi: return std::ceil(x);
    default: return std::trunc(x);
  }
}

// A float of type F from a double or an integer, rounded by `r`.
template <class F>
F to_float(const Number& n, Rounding r) {
  int mode = fe_mode(r);
  if (mode == FE_TONEAREST) return n.is_float ? static_cast<F>(n.f) : static_cast<F>(static_cast<long double>(n.i));
  int old = std::fegetround();
  std::fesetround(mode);
  volatile long double src = n.is_float ? static_cast<long double>(n.f) : static_cast<long double>(n.i);
  volatile F out = static_cast<F>(src);
  std::fesetround(old);
  return out;
}

bool is_int_rounding(Rounding r) {
  return r == Rounding::Rni || r == Rounding::Rzi || r == Rounding::Rmi || r == Rounding::Rpi;
}

std::uint64_t write_number(Type t, Number n, Rounding r, bool sat, bool relu, bool satfinite = false) {
  if (ptx::is_float(t)) {
    if (n.is_float && is_int_rounding(r)) n.f = round_integral(n.f, r);
    if (satfinite && n.is_float && !std::isnan(n.f)) {
      double max = t == Type::F16 ? 65504.0 : t == Type::BF16 || t == Type::F32 || t == Type::TF32 ? 3.4028234663852886e38 : 1.7976931348623157e308;
      n.f = std::fmin(std::fmax(n.f, -max), max);
    }
    if (n.is_float && sat) n.f = std::isnan(n.f) ? 0.0 : std::fmin(std::fmax(n.f, 0.0), 1.0);
    if (n.is_float && relu && !(n.f > 0)) n.f = 0;
    switch (t) {
      case Type::F64: return to_bits<double>(n.is_float ? n.f : to_float<double>(n, r));
      case Type::F32: return to_bits<float>(to_float<float>(n, r));
      case Type::F16: return float_to_half(to_float<float>(n, r));
      case Type::BF16: return float_to_bf16(to_float<float>(n, r));
      case Type::TF32: return to_bits<float>(to_float<float>(n, r)) & 0xffffe000u;
      default: return 0;
    }
  }
  int bits = ptx::type_bits(t);
  bool is_signed = ptx::is_signed(t);
  __int128 lo = is_signed ? -(static_cast<__int128>(1) << (bits - 1)) : 0;
  __int128 hi = is_signed ? (static_cast<__int128>(1) << (bits - 1)) - 1 : (static_cast<__int128>(1) << bits) - 1;
  __int128 v;
  if (n.is_float) {
    // Float to integer always saturates; NaN becomes 0.
    if (std::isnan(n.f)) return 0;
    double x = round_integral(n.f, r);
    if (x <= static_cast<double>(lo)) v = lo;
    else if (x >= static_cast<double>(hi)) v = hi;
    else v = static_cast<__int128>(x);
  } else {
    v = n.i;
    if (sat) v = v < lo ? lo : v > hi ? hi : v;
  }
  auto u = static_cast<std::uint64_t>(v);
  if (bits < 64) u &= (1ull << bits) - 1;
  if (is_signed && bits < 64 && (u >> (bits - 1)) & 1u) u |= ~((1ull << bits) - 1);  // keep sign-extended
  return u;
}

bool exec_mov(const Op& op, Warp& w, std::uint32_t mask) {
  if (op.ndst == 1 && op.nsrc == 1) {
    std::uint64_t* d = w.row(op.dst[0]);
    const std::uint64_t* a = w.row(op.src[0]);
    for_lanes(mask, [&](int l) { d[l] = a[l]; });
    return true;
  }
  int total = ptx::type_bits(op.type);
  if (op.ndst == 1 && op.nsrc > 1) {  // mov.b64 %rd, {%r1, %r2}: element 0 lowest
    int each = total / op.nsrc;
    std::uint64_t m = each >= 64 ? ~0ull : (1ull << each) - 1;
    std::uint64_t* d = w.row(op.dst[0]);
    for_lanes(mask, [&](int l) {
      std::uint64_t v = 0;
      for (int k = 0; k < op.nsrc; ++k) v |= (w.row(op.src[static_cast<std::size_t>(k)])[l] & m) << (each * k);
      d[l] = v;
    });
    return true;
  }
  if (op.ndst > 1 && op.nsrc == 1) {
    int each = total / op.ndst;
    std::uint64_t m = each >= 64 ? ~0ull : (1ull << each) - 1;
    const std::uint64_t* a = w.row(op.src[0]);
    for_lanes(mask, [&](int l) {
      std::uint64_t v = a[l];
      for (int k = 0; k < op.ndst; ++k) w.row(op.dst[static_cast<std::size_t>(k)])[l] = (v >> (each * k)) & m;
    });
    return true;
  }
  return false;
}

bool is_fp8x2(Type t) { return t == Type::E4M3x2 || t == Type::E5M2x2; }
ptx::TensorType fp8_of(Type t) { return t == Type::E4M3x2 ? ptx::TensorType::E4M3 : ptx::TensorType::E5M2; }

// The fp8 pairs (16 bits, the first value in the upper byte, as f16x2 keeps its first in the
// upper half):
//   cvt.rn.satfinite{.relu}.e4m3x2.f32 d, a, b      d = e4m3(a) << 8 | e4m3(b)
//   cvt.rn.satfinite{.relu}.e4m3x2.f16x2 d, a       each half of a to its byte
//   cvt.rn{.relu}.f16x2.e4m3x2 d, a                 each byte of a to its half (exact)
// (e5m2x2 alike; bf16x2 sources as f16x2.)
bool exec_cvt_fp8(const Op& op, Warp& w, std::uint32_t mask, bool relu, bool satfinite) {
  std::uint64_t* d = w.row(op.dst[0]);
  const std::uint64_t* a = w.row(op.src[0]);
  if (is_fp8x2(op.type)) {
    const ptx::TensorType t = fp8_of(op.type);
    if (op.type2 == Type::F32 && op.nsrc == 2) {
      const std::uint64_t* b = w.row(op.src[1]);
      for_lanes(mask, [&](int l) {
        d[l] = encode_fp8(t, from_bits<float>(a[l]), satfinite, relu) << 8 |
               encode_fp8(t, from_bits<float>(b[l]), satfinite, relu);
      });
      return true;
    }
    if ((op.type2 == Type::F16x2 || op.type2 == Type::BF16x2) && op.nsrc == 1) {
      const Type half = op.type2 == Type::F16x2 ? Type::F16 : Type::BF16;
      for_lanes(mask, [&](int l) {
        const auto hi = static_cast<float>(read_number(half, (a[l] >> 16) & 0xffffu).f);
        const auto lo = static_cast<float>(read_number(half, a[l] & 0xffffu).f);
        d[l] = encode_fp8(t, hi, satfinite, relu) << 8 | encode_fp8(t, lo, satfinite, relu);
      });
      return true;
    }
    return false;
  }
  if (op.type != Type::F16x2 || !is_fp8x2(op.type2) || op.nsrc != 1) return false;
  const ptx::TensorType t = fp8_of(op.type2);
  for_lanes(mask, [&](int l) {
    auto half_of = [&](std::uint32_t byte) {
      Number n;
      n.is_float = true;
      n.f = decode_float(t, byte);
      if (relu && !(n.f > 0)) n.f = 0;
      return write_number(Type::F16, n, Rounding::Rn, false, false) & 0xffffu;
    };
    d[l] = half_of(static_cast<std::uint32_t>(a[l] >> 8) & 0xffu) << 16 | half_of(static_cast<std::uint32_t>(a[l]) & 0xffu);
  });
  return true;
}

bool exec_cvt(const Op& op, Warp& w, std::uint32_t mask) {
  std::uint64_t* d = w.row(op.dst[0]);
  const bool sat = op.has(ptx::flag::Sat), relu = op.has(ptx::flag::Relu), satfinite = op.has(ptx::flag::SatFinite);
  if (is_fp8x2(op.type) || is_fp8x2(op.type2)) return exec_cvt_fp8(op, w, mask, relu, satfinite);
  if ((op.type == Type::F16x2 || op.type == Type::BF16x2) && op.nsrc == 2) {
    // cvt.rn.f16x2.f32 d, a, b: a goes to the upper half.
    Type half = op.type == Type::F16x2 ? Type::F16 : Type::BF16;
    const std::uint64_t* a = w.row(op.src[0]);
    const std::uint64_t* b = w.row(op.src[1]);
    for_lanes(mask, [&](int l) {
      std::uint64_t hi = write_number(half, read_number(op.type2, a[l]), op.rounding, sat, relu, satfinite);
      std::uint64_t lo = write_number(half, read_number(op.type2, b[l]), op.rounding, sat, relu, satfinite);
      d[l] = ((hi & 0xffffu) << 16) | (lo & 0xffffu);
    });
    return true;
  }
  if (op.type2 == Type::None || op.nsrc != 1) return false;
  const std::uint64_t* a = w.row(op.src[0]);
  if (op.type == Type::U32 && op.type2 == Type::U64 && !sat) {  // the common narrowing: fast path
    for_lanes(mask, [&](int l) { d[l] = static_cast<std::uint32_t>(a[l]); });
    return true;
  }
  for_lanes(mask, [&](int l) {
    d[l] = write_number(op.type, read_number(op.type2, a[l]), op.rounding, sat, relu, satfinite);
  });
  return true;
}

std::uint64_t window_of(ptx::Space s) {
  return s == ptx::Space::Shared  ? kSharedWindow
         : s == ptx::Space::Local ? kLocalWindow
         : s == ptx::Space::Param ? kParamWindow
                                  : 0;
}

}  // namespace

bool exec_move(const Op& op, Warp& w, std::uint32_t mask, BlockContext& ctx) {
  bool ok = false;
  switch (op.opcode) {
    case Opcode::Mov: ok = exec_mov(op, w, mask); break;
    case Opcode::Cvt: ok = exec_cvt(op, w, mask); break;
    case Opcode::Cvta: {
      std::uint64_t base = window_of(op.space);
      bool to = op.has(ptx::flag::To);
      bool narrow = ptx::type_bits(op.type) == 32;
      std::uint64_t* d = w.row(op.dst[0]);
      const std::uint64_t* a = w.row(op.src[0]);
      for_lanes(mask, [&](int l) {
        std::uint64_t v = to ? a[l] - base : (narrow ? static_cast<std::uint32_t>(a[l]) : a[l]) + base;
        d[l] = narrow ? static_cast<std::uint32_t>(v) : v;
      });
      ok = true;
      break;
    }
    case Opcode::Createpolicy: {
      // A cache policy only steers L2 eviction, never an address: every policy reads 0.
      std::uint64_t* d = w.row(op.dst[0]);
      for_lanes(mask, [&](int l) { d[l] = 0; });
      ok = true;
      break;
    }
    case Opcode::Isspacep: {
      std::uint64_t* d = w.row(op.dst[0]);
      const std::uint64_t* a = w.row(op.src[0]);
      for_lanes(mask, [&](int l) {
        std::uint64_t v = a[l];
        bool in = op.space == ptx::Space::Shared  ? in_shared_window(v)
                  : op.space == ptx::Space::Local ? in_local_window(v)
                  : op.space == ptx::Space::Param ? in_param_window(v)
                                                  : !in_shared_window(v) && !in_local_window(v) && !in_param_window(v);
        d[l] = in ? 1u : 0u;
      });
      ok = true;
      break;
    }
    default: break;
  }
  return ok ? true : unsupported(op, w, mask, ctx);
}

}  // namespace warpscope::emu
