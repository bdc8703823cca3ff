// exec_arith.cc: integer and floating-point arithmetic (add ... copysign), including
// .wide/.hi/.lo, .sat, carries, the f16/bf16 (x2) forms computed through float, and the
// integer dot products dp4a/dp2a.
#include <cfenv>
#include <cmath>
#include <limits>

#include "emu/exec.h"
#include "emu/lanes.h"

namespace warpscope::emu {
namespace {

using ptx::Opcode;
using ptx::Type;

template <class T>
using Wide = std::conditional_t<
    sizeof(T) == 2, std::conditional_t<std::is_signed_v<T>, std::int32_t, std::uint32_t>,
    std::conditional_t<sizeof(T) == 4, std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>,
                       std::conditional_t<std::is_signed_v<T>, __int128, unsigned __int128>>>;

template <class T>
T saturate(Wide<T> v) {
  if (v > static_cast<Wide<T>>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
  if (v < static_cast<Wide<T>>(std::numeric_limits<T>::min())) return std::numeric_limits<T>::min();
  return static_cast<T>(v);
}

template <class T>
T int_div(T a, T b) {
  if (b == 0) return static_cast<T>(~T(0));  // the hardware's all-ones
  if constexpr (std::is_signed_v<T>) {
    if (a == std::numeric_limits<T>::min() && b == T(-1)) return a;
  }
  return static_cast<T>(a / b);
}

template <class T>
T int_rem(T a, T b) {
  if (b == 0) return a;
  if constexpr (std::is_signed_v<T>) {
    if (b == T(-1)) return 0;
  }
  return static_cast<T>(a % b);
}

template <class T>
bool integer_op(const Op& op, Warp& w, std::uint32_t mask) {
  std::uint64_t* d = w.row(op.dst[0]);
  const std::uint64_t* a = op.nsrc > 0 ? w.row(op.src[0]) : nullptr;
  const std::uint64_t* b = op.nsrc > 1 ? w.row(op.src[1]) : nullptr;
  const std::uint64_t* c = op.nsrc > 2 ? w.row(op.src[2]) : nullptr;
  using U = std::make_unsigned_t<T>;
  using W = Wide<T>;
  constexpr int kBits = sizeof(T) * 8;
  const bool wide = op.has(ptx::flag::Wide), hi = op.has(ptx::flag::Hi), sat = op.has(ptx::flag::Sat);
  const bool carry_out = op.has(ptx::flag::CarryOut);
  auto A = [&](int l) { return from_bits<T>(a[l]); };
  auto B = [&](int l) { return from_bits<T>(b[l]); };
  switch (op.opcode) {
    case Opcode::Add: case Opcode::AddC:
    case Opcode::Sub: case Opcode::SubC: {
      bool sub = op.opcode == Opcode::Sub || op.opcode == Opcode::SubC;
      bool carry_in = op.opcode == Opcode::AddC || op.opcode == Opcode::SubC;
      std::uint32_t carries = 0;
      for_lanes(mask, [&](int l) {
        U x = static_cast<U>(A(l)), y = static_cast<U>(B(l));
        U cin = carry_in ? U((w.carry >> l) & 1u) : U(0);
        if (sat) {
          W r = sub ? W(A(l)) - W(B(l)) : W(A(l)) + W(B(l));
          d[l] = to_bits<T>(saturate<T>(r));
          return;
        }
        U r;
        bool cout;
        if (!sub) {
          r = static_cast<U>(x + y + cin);
          cout = (static_cast<U>(x + y) < x) || (static_cast<U>(x + y + cin) < cin);
        } else {
          // sub.cc: borrow; subc: a - (b + borrow-in)
          r = static_cast<U>(x - y - cin);
          cout = (x < y) || (static_cast<U>(x - y) < cin);
        }
        if (cout) carries |= 1u << l;
        d[l] = to_bits<T>(static_cast<T>(r));
      });
      if (carry_out) w.carry = (w.carry & ~mask) | carries;
      return true;
    }
    case Opcode::Mul24: case Opcode::Mad24: {
      // 24-bit operands; .hi gives bits 47..16 of the 48-bit product.
      if constexpr (sizeof(T) == 4) {
        auto low24 = [](T v) -> std::int64_t {
          auto u = static_cast<std::uint32_t>(v) & 0xffffffu;
          if (std::is_signed_v<T> && (u & 0x800000u)) return static_cast<std::int64_t>(u) - 0x1000000;
          return static_cast<std::int64_t>(u);
        };
        for_lanes(mask, [&](int l) {
          std::int64_t p = low24(A(l)) * low24(B(l));
          auto r = static_cast<std::uint32_t>(hi ? (p >> 16) : p);
          if (op.opcode == Opcode::Mad24) r += static_cast<std::uint32_t>(c[l]);
          d[l] = to_bits<T>(static_cast<T>(r));
        });
        return true;
      }
      return false;
    }
    case Opcode::Mul:
      for_lanes(mask, [&](int l) {
        W p = W(A(l)) * W(B(l));
        if (wide) {
          d[l] = to_bits<W>(p);
        } else if (hi) {
          d[l] = to_bits<T>(static_cast<T>(p >> kBits));
        } else {
          d[l] = to_bits<T>(static_cast<T>(static_cast<U>(static_cast<U>(A(l)) * static_cast<U>(B(l)))));
        }
      });
      return true;
    case Opcode::Mad: case Opcode::MadC: {
      bool carry_in = op.opcode == Opcode::MadC;
      std::uint32_t carries = 0;
      for_lanes(mask, [&](int l) {
        W p = W(A(l)) * W(B(l));
        std::uint64_t cin = carry_in ? ((w.carry >> l) & 1u) : 0;
        if (wide) {
          W r = p + from_bits<W>(c[l]) + W(cin);
          d[l] = to_bits<W>(r);
          return;
        }
        U part = hi ? static_cast<U>(p >> kBits) : static_cast<U>(p);
        U cc = static_cast<U>(from_bits<T>(c[l]));
        if (sat && !hi) {
          d[l] = to_bits<T>(saturate<T>(W(static_cast<T>(part)) + W(from_bits<T>(c[l]))));
          return;
        }
        U r = static_cast<U>(part + cc + U(cin));
        if ((static_cast<U>(part + cc) < part) || (r < U(cin))) carries |= 1u << l;
        d[l] = to_bits<T>(static_cast<T>(r));
      });
      if (carry_out) w.carry = (w.carry & ~mask) | carries;
      return true;
    }
    case Opcode::Sad:
      for_lanes(mask, [&](int l) {
        T x = A(l), y = B(l);
        d[l] = to_bits<T>(static_cast<T>((x > y ? x - y : y - x) + from_bits<T>(c[l])));
      });
      return true;
    case Opcode::Min:
      for_lanes(mask, [&](int l) { d[l] = to_bits<T>(A(l) < B(l) ? A(l) : B(l)); });
      return true;
    case Opcode::Max:
      for_lanes(mask, [&](int l) {
        T r = A(l) > B(l) ? A(l) : B(l);
        if (op.has(ptx::flag::Relu) && r < T(0)) r = T(0);
        d[l] = to_bits<T>(r);
      });
      return true;
    case Opcode::Abs:
      for_lanes(mask, [&](int l) {
        T x = A(l);
        d[l] = to_bits<T>(static_cast<T>(x < T(0) ? static_cast<T>(U(0) - static_cast<U>(x)) : x));
      });
      return true;
    case Opcode::Neg:
      for_lanes(mask, [&](int l) { d[l] = to_bits<T>(static_cast<T>(U(0) - static_cast<U>(A(l)))); });
      return true;
    case Opcode::Div:
      for_lanes(mask, [&](int l) { d[l] = to_bits<T>(int_div<T>(A(l), B(l))); });
      return true;
    case Opcode::Rem:
      for_lanes(mask, [&](int l) { d[l] = to_bits<T>(int_rem<T>(A(l), B(l))); });
      return true;
    default:
      return false;
  }
}

template <class F>
F flush(F v, bool ftz) {
  if (ftz && std::fpclassify(v) == FP_SUBNORMAL) return std::copysign(F(0), v);
  return v;
}

template <class F>
bool float_op(const Op& op, Warp& w, std::uint32_t mask) {
  std::uint64_t* d = w.row(op.dst[0]);
  const std::uint64_t* a = op.nsrc > 0 ? w.row(op.src[0]) : nullptr;
  const std::uint64_t* b = op.nsrc > 1 ? w.row(op.src[1]) : nullptr;
  const std::uint64_t* c = op.nsrc > 2 ? w.row(op.src[2]) : nullptr;
  const bool ftz = op.has(ptx::flag::Ftz), sat = op.has(ptx::flag::Sat);
  auto A = [&](int l) { return flush(from_bits<F>(a[l]), ftz); };
  auto B = [&](int l) { return flush(from_bits<F>(b[l]), ftz); };
  auto C = [&](int l) { return flush(from_bits<F>(c[l]), ftz); };
  auto put = [&](int l, F v) {
    if (sat) v = std::isnan(v) ? F(0) : std::fmin(std::fmax(v, F(0)), F(1));
    d[l] = to_bits<F>(flush(v, ftz));
  };
  switch (op.opcode) {
    case Opcode::Add: for_lanes(mask, [&](int l) { put(l, A(l) + B(l)); }); return true;
    case Opcode::Sub: for_lanes(mask, [&](int l) { put(l, A(l) - B(l)); }); return true;
    case Opcode::Mul: for_lanes(mask, [&](int l) { put(l, A(l) * B(l)); }); return true;
    case Opcode::Fma: case Opcode::Mad:
      for_lanes(mask, [&](int l) { put(l, std::fma(A(l), B(l), C(l))); });
      return true;
    case Opcode::Div: for_lanes(mask, [&](int l) { put(l, A(l) / B(l)); }); return true;
    case Opcode::Min: case Opcode::Max: {
      bool is_min = op.opcode == Opcode::Min, nan = op.has(ptx::flag::NaN);
      for_lanes(mask, [&](int l) {
        F x = A(l), y = B(l);
        F r = is_min ? std::fmin(x, y) : std::fmax(x, y);
        if (nan && (std::isnan(x) || std::isnan(y))) r = std::numeric_limits<F>::quiet_NaN();
        if (op.has(ptx::flag::Relu) && r < F(0)) r = F(0);
        put(l, r);
      });
      return true;
    }
    case Opcode::Abs: for_lanes(mask, [&](int l) { d[l] = to_bits<F>(std::fabs(A(l))); }); return true;
    case Opcode::Neg: for_lanes(mask, [&](int l) { d[l] = to_bits<F>(-A(l)); }); return true;
    case Opcode::Copysign:
      for_lanes(mask, [&](int l) { d[l] = to_bits<F>(std::copysign(B(l), A(l))); });
      return true;
    default:
      return false;
  }
}

// f16, bf16 and their x2 packs: each 16-bit half computed in float, rounded back.
bool half_op(const Op& op, Warp& w, std::uint32_t mask) {
  bool bf = op.type == Type::BF16 || op.type == Type::BF16x2;
  int parts = (op.type == Type::F16x2 || op.type == Type::BF16x2) ? 2 : 1;
  auto to_f = [&](std::uint64_t v, int k) {
    auto h = static_cast<std::uint16_t>(v >> (16 * k));
    return bf ? bf16_to_float(h) : half_to_float(h);
  };
  auto from_f = [&](float f) { return static_cast<std::uint64_t>(bf ? float_to_bf16(f) : float_to_half(f)); };
  std::uint64_t* d = w.row(op.dst[0]);
  const std::uint64_t* a = op.nsrc > 0 ? w.row(op.src[0]) : nullptr;
  const std::uint64_t* b = op.nsrc > 1 ? w.row(op.src[1]) : nullptr;
  const std::uint64_t* c = op.nsrc > 2 ? w.row(op.src[2]) : nullptr;
  bool ok = true;
  for_lanes(mask, [&](int l) {
    std::uint64_t out = 0;
    for (int k = 0; k < parts; ++k) {
      float x = a ? to_f(a[l], k) : 0.f, y = b ? to_f(b[l], k) : 0.f, z = c ? to_f(c[l], k) : 0.f;
      float r;
      switch (op.opcode) {
        case Opcode::Add: r = x + y; break;
        case Opcode::Sub: r = x - y; break;
        case Opcode::Mul: r = x * y; break;
        case Opcode::Fma: case Opcode::Mad: r = std::fma(x, y, z); break;
        case Opcode::Min: r = std::fmin(x, y); break;
        case Opcode::Max: r = std::fmax(x, y); break;
        case Opcode::Neg: r = -x; break;
        case Opcode::Abs: r = std::fabs(x); break;
        default: ok = false; r = 0; break;
      }
      if (op.has(ptx::flag::Relu) && r < 0) r = 0;
      if (op.has(ptx::flag::Sat)) r = std::fmin(std::fmax(r, 0.f), 1.f);
      out |= from_f(r) << (16 * k);
    }
    d[l] = out;
  });
  return ok;
}

// dp4a.atype.btype d, a, b, c: c plus the four products of a's and b's bytes; dp2a.lo/.hi:
// c plus a's two 16-bit halves times b's bytes 0,1 (.lo) or 2,3 (.hi). Each part is sign- or
// zero-extended by its operand's type; the sum wraps at 32 bits.
bool dot_product_op(const Op& op, Warp& w, std::uint32_t mask) {
  std::uint64_t* d = w.row(op.dst[0]);
  const std::uint64_t *a = w.row(op.src[0]), *b = w.row(op.src[1]), *c = w.row(op.src[2]);
  const bool a_signed = op.type == Type::S32, b_signed = op.type2 == Type::S32;
  auto part = [](std::uint32_t v, int index, int bits, bool is_signed) -> std::int64_t {
    std::uint32_t field = (v >> (index * bits)) & ((1u << bits) - 1u);
    if (is_signed && (field >> (bits - 1))) return static_cast<std::int64_t>(field) - (std::int64_t{1} << bits);
    return field;
  };
  const bool four = op.opcode == Opcode::Dp4a;
  const int b_first = !four && op.has(ptx::flag::Hi) ? 2 : 0;
  for_lanes(mask, [&](int l) {
    auto av = static_cast<std::uint32_t>(a[l]), bv = static_cast<std::uint32_t>(b[l]);
    std::int64_t sum = static_cast<std::int32_t>(static_cast<std::uint32_t>(c[l]));
    for (int i = 0; i < (four ? 4 : 2); ++i)
      sum += part(av, i, four ? 8 : 16, a_signed) * part(bv, b_first + i, 8, b_signed);
    auto bits = static_cast<std::uint32_t>(sum);
    d[l] = a_signed || b_signed ? to_bits(static_cast<std::int32_t>(bits)) : to_bits(bits);  // d is .s32 or .u32
  });
  return true;
}

}  // namespace

// Directed rounding (add.rz.f32, fma.rm.f64, ...) in the host's floating-point environment.
class RoundingScope {
 public:
  explicit RoundingScope(ptx::Rounding r) {
    int mode = r == ptx::Rounding::Rz ? FE_TOWARDZERO : r == ptx::Rounding::Rm ? FE_DOWNWARD
               : r == ptx::Rounding::Rp ? FE_UPWARD : -1;
    if (mode >= 0) {
      saved_ = std::fegetround();
      std::fesetround(mode);
    }
  }
  ~RoundingScope() {
    if (saved_ >= 0) std::fesetround(saved_);
  }

 private:
  int saved_ = -1;
};

bool exec_arith(const Op& op, Warp& w, std::uint32_t mask, BlockContext& ctx) {
  bool done = false;
  if (op.opcode == Opcode::Dp4a || op.opcode == Opcode::Dp2a) return dot_product_op(op, w, mask);
  RoundingScope rounding(ptx::is_float(op.type) ? op.rounding : ptx::Rounding::None);
  switch (op.type) {
    case Type::F16: case Type::F16x2: case Type::BF16: case Type::BF16x2:
      done = half_op(op, w, mask);
      break;
    case Type::F32: done = float_op<float>(op, w, mask); break;
    case Type::F64: done = float_op<double>(op, w, mask); break;
    case Type::U16: case Type::B16: done = integer_op<std::uint16_t>(op, w, mask); break;
    case Type::S16: done = integer_op<std::int16_t>(op, w, mask); break;
    case Type::U32: case Type::B32: done = integer_op<std::uint32_t>(op, w, mask); break;
    case Type::S32: done = integer_op<std::int32_t>(op, w, mask); break;
    case Type::U64: case Type::B64: done = integer_op<std::uint64_t>(op, w, mask); break;
    case Type::S64: done = integer_op<std::int64_t>(op, w, mask); break;
    default: break;
  }
  return done ? true : unsupported(op, w, mask, ctx);
}

}  // namespace warpscope::emu
