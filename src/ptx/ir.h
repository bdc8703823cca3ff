// ir.h: a parsed PTX module, pre-decoded so that an emulator never touches strings.
//
//   mad.lo.s32 %r12, %r8, 132, %r11;        (tests/data/ptx/transpose.ptx:97, .loc 1 15 5)
//   -> Instruction{opcode=Mad, type=S32, flags=Lo,
//                  operands={Reg 12, Reg 8, Imm 132, Reg 11}, ptx_line=97, debug.loc={1,15,5}}
//
// Registers are numbered per function (index into Function::registers); labels are
// instruction indices; symbols (variables of every state space, params included) are
// indices into Module::variables; call targets are indices into Module::functions.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ptx/tensor_info.h"

namespace warpscope::ptx {

enum class Opcode : std::uint8_t {
#define PTX_OPCODE(name, text, family) name,
#include "ptx/opcodes.def"
#undef PTX_OPCODE
  Unsupported,  // kept with its text; running it is an error
  kCount
};

// Async: the sm_90 asynchronous pipeline (mbarrier, TMA and bulk copies, tensor maps) and
// its helpers (elect, mapa); emu/exec_async.cc dispatches it.
enum class Family : std::uint8_t {
  Arith, Special, Bits, Compare, Move, Memory, Nop, Warp, Control, Tensor, Async, Unsupported
};

Family family_of(Opcode op);
std::string_view opcode_name(Opcode op);  // "cp.async.wait_group"
// The longest opcode name that `dotted` starts with, in whole dot-separated parts, and
// how many parts it used: "cp.async.cg.shared.global" -> (CpAsync, 2).
std::optional<std::pair<Opcode, int>> find_opcode(std::string_view dotted);

// Whether operand 0 is a destination (false for stores, branches, barriers, ...). Setp
// shfl and match also write operand 1 ("%p|%q", "%r|%p") when it is present.
bool writes_first_operand(Opcode op);

enum class Type : std::uint8_t {
  None, Pred, B8, B16, B32, B64, B128, U8, U16, U32, U64, S8, S16, S32, S64,
  F16, F16x2, BF16, BF16x2, TF32, F32, F64,
  E4M3x2, E5M2x2  // two fp8 values in 16 bits (cvt only: cvt.rn.satfinite.e4m3x2.f32)
};
int type_bits(Type t);  // Pred -> 1, None -> 0
bool is_float(Type t);
bool is_signed(Type t);
std::string_view type_name(Type t);  // "u32"

enum class Space : std::uint8_t { None, Reg, Sreg, Const, Global, Local, Param, Shared, Tex };
std::string_view space_name(Space s);  // "shared"; None -> "generic"

enum class Cmp : std::uint8_t {
  None, Eq, Ne, Lt, Le, Gt, Ge, Lo, Ls, Hi, Hs, Equ, Neu, Ltu, Leu, Gtu, Geu, Num, Nan
};
enum class Rounding : std::uint8_t { None, Rn, Rz, Rm, Rp, Rna, Rni, Rzi, Rmi, Rpi };

// The opcode's operation variant: atom/red/redux ops, shfl and vote modes, setp's
// boolean combiner, bar.red's op, match's mode.
enum class SubOp : std::uint8_t {
  None, Add, Min, Max, Inc, Dec, And, Or, Xor, Exch, Cas, Up, Down, Bfly, Idx, All, Any,
  Ballot, Popc, Uni,
  Finite, Infinite, Number, NotANumber, Normal, Subnormal,  // testp
  F4e, B4e, Rc8, Ecl, Ecr, Rc16                              // prmt modes
};

namespace flag {
inline constexpr std::uint32_t Lo = 1u << 0;
inline constexpr std::uint32_t Hi = 1u << 1;
inline constexpr std::uint32_t Wide = 1u << 2;
inline constexpr std::uint32_t Sat = 1u << 3;
inline constexpr std::uint32_t Ftz = 1u << 4;
inline constexpr std::uint32_t Approx = 1u << 5;
inline constexpr std::uint32_t Full = 1u << 6;
inline constexpr std::uint32_t Uni = 1u << 7;
inline constexpr std::uint32_t Volatile = 1u << 8;
inline constexpr std::uint32_t NonCoherent = 1u << 9;  // ld.global.nc
inline constexpr std::uint32_t Trans = 1u << 10;       // ldmatrix .trans
inline constexpr std::uint32_t To = 1u << 11;          // cvta.to.global
inline constexpr std::uint32_t Left = 1u << 12;        // shf.l
inline constexpr std::uint32_t Right = 1u << 13;       // shf.r
inline constexpr std::uint32_t Clamp = 1u << 14;       // shf.clamp
inline constexpr std::uint32_t Wrap = 1u << 15;        // shf.wrap
inline constexpr std::uint32_t Shiftamt = 1u << 16;    // bfind.shiftamt
inline constexpr std::uint32_t NaN = 1u << 17;         // min.NaN
inline constexpr std::uint32_t ResultUnused = 1u << 18;  // atom whose destination is never read
inline constexpr std::uint32_t Relu = 1u << 19;        // cvt.relu / max.relu
inline constexpr std::uint32_t CarryOut = 1u << 20;    // add.cc, mad.lo.cc, addc.cc
inline constexpr std::uint32_t SatFinite = 1u << 21;   // cvt.satfinite
inline constexpr std::uint32_t CacheHint = 1u << 22;   // .L2::cache_hint: the last operand is a cache policy
inline constexpr std::uint32_t Cluster = 1u << 23;     // .shared::cluster (the first state space)
}  // namespace flag

// Special registers (ptx/special_registers.def): %tid.x is {Tid, component 0},
// %envreg7 {Envreg, 7}, %pm3_64 {Pm64, 3}, %reserved_smem_offset_1 {ReservedSmemOffset, 1}.
enum class Sreg : std::uint8_t {
#define PTX_SREG(name, text, shape, count, bits) name,
#include "ptx/special_registers.def"
#undef PTX_SREG
  kCount
};
enum class SregShape : std::uint8_t { Scalar, Vector, Indexed, Indexed64 };

// The register a name such as "%envreg7" or "%tid" (its .x/.y/.z is a separate token)
// names: the register and its component (the index of an Indexed one), or nullopt.
std::optional<std::pair<Sreg, std::uint8_t>> find_sreg(std::string_view name);
// "%tid.y", "%envreg7", "%pm3_64", "%laneid".
std::string sreg_name(Sreg s, std::uint8_t component);
SregShape sreg_shape(Sreg s);
int sreg_count(Sreg s);  // indexes of an Indexed register; 0 otherwise
int sreg_bits(Sreg s);   // 32, 64; 1 for %is_explicit_cluster

enum class OperandKind : std::uint8_t {
  None,
  Reg,     // reg[0]
  Imm,     // imm (bits; floats as their IEEE bits, see imm_type)
  Addr,    // [reg[0] + imm] or [symbol + imm] or [imm]; reg[0] == kNoReg when absent
  Vec,     // {reg[0] .. reg[count-1]}; kNoReg is the sink `_`. A vector of more than 4
           // registers (mma, wgmma accumulators) keeps them in Instruction::wide_regs from
           // index imm: read them with Instruction::vec_reg
  Label,   // imm = instruction index in the function
  Func,    // call target: imm = index into Function::calls
  FunctionAddress,  // a function's name as a value (mov.u64 %rd, f): imm = function index
  Sreg,    // sreg, component (0..2 for .x .y .z)
  Symbol,  // the address of `symbol` (mov.u32 %r, smem), plus imm
};

inline constexpr std::uint32_t kNoReg = 0xffffffffu;

struct Operand {
  OperandKind kind = OperandKind::None;
  bool negated = false;       // !%p
  std::uint8_t count = 0;     // Vec: elements (up to 255)
  Type imm_type = Type::None; // Imm: None for an integer literal, F32 for 0f..., F64 for 0d/decimal
  Sreg sreg = Sreg::Tid;
  std::uint8_t component = 0;
  std::int32_t symbol = -1;   // Addr/Symbol: Module::variables index; -1 when none
  std::array<std::uint32_t, 4> reg{kNoReg, kNoReg, kNoReg, kNoReg};
  std::int64_t imm = 0;
  // Vec elements that are immediates ({%f1, 0f00000000}): bit k set, value in vec_imm[k].
  std::uint8_t vec_imm_mask = 0;
  std::array<Type, 4> vec_imm_type{};  // as imm_type, per element
  std::array<std::int64_t, 4> vec_imm{};
};

// A .loc position: file index (Module::files), line, column; file 0 means unknown.
struct SourceLoc {
  int file = 0;
  int line = 0;
  int column = 0;
  bool known() const { return file != 0 && line != 0; }
  friend bool operator==(const SourceLoc&, const SourceLoc&) = default;
};

// The .loc in force at an instruction. For inlined code, `outer` is the call site in
// the function that was compiled (the end of the inlined_at chain), `inner` the
// nearest call site (the .loc's own inlined_at); both equal `loc` when not inlined.
struct DebugLoc {
  SourceLoc loc;
  SourceLoc inner;
  SourceLoc outer;
  bool inlined() const { return !(outer == loc); }
};

inline constexpr int kMaxOperands = 8;  // wgmma: d, a, b, scale-d, imm-scale-a/b, tnsp-a/b

struct Instruction {
  Opcode opcode = Opcode::Unsupported;
  Type type = Type::None;    // the main type: the last type modifier (cvt: destination)
  Type type2 = Type::None;   // cvt/set: source type
  Space space = Space::None; // ld/st/atom/cvta/isspacep; cp.async: destination
  Space space2 = Space::None;// cp.async: source
  Cmp cmp = Cmp::None;
  Rounding rounding = Rounding::None;
  SubOp subop = SubOp::None;
  std::uint8_t vec = 1;      // .v2/.v4; ldmatrix .x1/.x2/.x4
  std::uint8_t num_operands = 0;
  bool guard_negated = false;
  std::uint32_t guard = kNoReg;  // @%p
  std::uint32_t flags = 0;
  std::uint32_t variant = 0;  // the Async family's own modifiers (ptx/async_variant.h)
  std::array<Operand, kMaxOperands> operands{};
  int ptx_line = 0;
  DebugLoc debug;
  std::string text;  // the opcode with its modifiers as written: "ld.global.nc.v4.f32"
  TensorInfo tensor;  // mma, wmma.*, wgmma.mma_async: shape, layouts, element types
  std::vector<std::uint32_t> wide_regs;  // registers of vector operands longer than 4
  // Unsupported: why, when more than the opcode is unknown ("unknown register '%foo'").
  std::string unsupported_reason;

  bool has(std::uint32_t f) const { return (flags & f) != 0; }
  const Operand& op(int i) const { return operands[static_cast<std::size_t>(i)]; }
  // Register k of a vector operand, however long.
  std::uint32_t vec_reg(const Operand& o, int k) const {
    return o.count > 4 ? wide_regs[static_cast<std::size_t>(o.imm + k)] : o.reg[static_cast<std::size_t>(k)];
  }
};

// One call's parameter lists: call (retval0), f, (param0, param1);
struct CallSite {
  int callee = -1;
  std::vector<int> returns;    // Module::variables of the caller's .param symbols
  std::vector<int> arguments;
};

struct Variable {
  std::string name;
  std::string source_name;      // a kernel parameter's name in the .cu, when known (source_names.h)
  Space space = Space::None;
  Type type = Type::None;
  int align = 0;
  std::uint64_t size = 0;       // bytes; 0 for an extern array (dynamic shared memory)
  bool is_extern = false;
  bool is_dynamic = false;      // .extern .shared ... name[]
  int function = -1;            // owning function; -1 at module scope
  int param_index = -1;         // position in a function's parameter (or return) list
  bool is_return = false;
  std::vector<std::uint8_t> init;  // initializer bytes (may be shorter than size)
  // Addresses in the initializer: {byte offset, variable} (generic(x) or x); 8 bytes each.
  std::vector<std::pair<std::uint64_t, int>> init_addresses;
  // Function addresses in the initializer (vtables, tables of function pointers):
  // {byte offset, function index}; 8 bytes each.
  std::vector<std::pair<std::uint64_t, int>> init_functions;
  int ptx_line = 0;
};

struct Register {
  std::string name;  // "%r12"
  Type type = Type::None;
};

struct Function {
  std::string name;
  bool is_entry = false;
  bool is_declaration = false;   // a prototype without a body
  std::vector<int> params;       // Module::variables
  std::vector<int> returns;
  std::vector<Register> registers;
  std::vector<Instruction> body;
  std::vector<CallSite> calls;   // Instruction call operand 0's imm indexes this
  std::array<int, 3> reqntid{0, 0, 0};
  std::array<int, 3> maxntid{0, 0, 0};
  std::array<int, 3> reqnctapercluster{0, 0, 0};  // .reqnctapercluster; 0: none
  bool explicit_cluster = false;                 // .explicitcluster
  int ptx_line = 0;
};

struct Module {
  std::string path;          // the .ptx file name given to the parser
  std::string version;       // "9.0"
  std::string target;        // "sm_90"
  int address_size = 64;
  std::map<int, std::string> files;  // .file index -> path
  std::vector<Function> functions;
  std::vector<Variable> variables;

  // Index of the function with this name, or -1.
  int find_function(std::string_view name) const;
  // "file.cu:12" for a .loc (the file's base name is kept as written), or "" if unknown.
  std::string describe(const SourceLoc& loc) const;
  // "kernel.ptx:97" and, when known, " (transpose.cu:15)" or
  // " (sm_30_intrinsics.hpp:440, inlined at reduce.cu:21)".
  std::string describe(const Instruction& inst) const;
};

}  // namespace warpscope::ptx
