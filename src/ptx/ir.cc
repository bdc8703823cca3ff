// ir.cc: names and lookups for the PTX IR's enums.
#include "ptx/ir.h"

#include <string>
#include <unordered_map>

namespace warpscope::ptx {
namespace {

struct OpcodeRow {
  std::string_view name;
  Family family;
};

constexpr OpcodeRow kOpcodes[] = {
#define PTX_OPCODE(name, text, family) {text, Family::family},
#include "ptx/opcodes.def"
#undef PTX_OPCODE
    {"<unsupported>", Family::Unsupported},
};

const std::unordered_map<std::string_view, Opcode>& opcode_index() {
  static const auto* index = [] {
    auto* m = new std::unordered_map<std::string_view, Opcode>();
    for (int i = 0; i < static_cast<int>(Opcode::Unsupported); ++i)
      m->emplace(kOpcodes[i].name, static_cast<Opcode>(i));
    return m;
  }();
  return *index;
}

}  // namespace

Family family_of(Opcode op) { return kOpcodes[static_cast<int>(op)].family; }
std::string_view opcode_name(Opcode op) { return kOpcodes[static_cast<int>(op)].name; }

std::optional<std::pair<Opcode, int>> find_opcode(std::string_view dotted) {
  // Try the first 5, 4, ..., then 1 dot-separated parts (cp.async.bulk.prefetch.tensor).
  std::size_t ends[5];
  int parts = 0;
  std::size_t pos = 0;
  while (parts < 5) {
    std::size_t dot = dotted.find('.', pos);
    ends[parts++] = dot == std::string_view::npos ? dotted.size() : dot;
    if (dot == std::string_view::npos) break;
    pos = dot + 1;
  }
  const auto& index = opcode_index();
  for (int k = parts; k >= 1; --k) {
    auto it = index.find(dotted.substr(0, ends[k - 1]));
    if (it != index.end()) return std::make_pair(it->second, k);
  }
  return std::nullopt;
}

// Operands that an instruction writes (destinations), by opcode: the first operand,
// and the second for setp/shfl's "d|p" form, except for stores and control flow.
bool writes_first_operand(Opcode op) {
  switch (op) {
    case Opcode::St: case Opcode::Red: case Opcode::StMatrix: case Opcode::CpAsync:
    case Opcode::Bra: case Opcode::Call: case Opcode::Ret: case Opcode::Exit: case Opcode::Trap:
    case Opcode::BarSync: case Opcode::BarrierSync: case Opcode::Bar: case Opcode::BarArrive:
    case Opcode::BarrierArrive: case Opcode::Prefetch: case Opcode::Prefetchu:
    case Opcode::CpAsyncWait: case Opcode::Nanosleep: case Opcode::BarWarpSync:
    case Opcode::WmmaStore: case Opcode::WgmmaFence: case Opcode::WgmmaCommit: case Opcode::WgmmaWait:
    case Opcode::Discard: case Opcode::Applypriority:
    case Opcode::MbarrierInit: case Opcode::MbarrierInval: case Opcode::MbarrierExpectTx:
    case Opcode::MbarrierCompleteTx: case Opcode::CpAsyncBulk: case Opcode::CpAsyncBulkTensor:
    case Opcode::CpAsyncMbarrierArrive:
    case Opcode::CpAsyncBulkPrefetch: case Opcode::CpAsyncBulkPrefetchTensor: case Opcode::CpReduceAsyncBulk:
    case Opcode::CpReduceAsyncBulkTensor: case Opcode::CpAsyncBulkCommit: case Opcode::CpAsyncBulkWait:
    case Opcode::TensormapReplace: case Opcode::TensormapCpFenceproxy: case Opcode::Setmaxnreg:
    case Opcode::BarrierClusterArrive: case Opcode::BarrierClusterWait:
    case Opcode::Fence:  // fence.proxy.tensormap::generic.acquire.gpu [map], 128
      return false;
    default:
      return true;
  }
}


int type_bits(Type t) {
  switch (t) {
    case Type::None: return 0;
    case Type::Pred: return 1;
    case Type::B8: case Type::U8: case Type::S8: return 8;
    case Type::B16: case Type::U16: case Type::S16: case Type::F16: case Type::BF16:
    case Type::E4M3x2: case Type::E5M2x2: return 16;
    case Type::B32: case Type::U32: case Type::S32: case Type::F32: case Type::F16x2:
    case Type::BF16x2: case Type::TF32: return 32;
    case Type::B64: case Type::U64: case Type::S64: case Type::F64: return 64;
    case Type::B128: return 128;
  }
  return 0;
}

bool is_float(Type t) {
  switch (t) {
    case Type::F16: case Type::F16x2: case Type::BF16: case Type::BF16x2: case Type::TF32:
    case Type::F32: case Type::F64: case Type::E4M3x2: case Type::E5M2x2: return true;
    default: return false;
  }
}

bool is_signed(Type t) {
  return t == Type::S8 || t == Type::S16 || t == Type::S32 || t == Type::S64;
}

std::string_view type_name(Type t) {
  static constexpr std::string_view kNames[] = {
      "", "pred", "b8", "b16", "b32", "b64", "b128", "u8", "u16", "u32", "u64",
      "s8", "s16", "s32", "s64", "f16", "f16x2", "bf16", "bf16x2", "tf32", "f32", "f64",
      "e4m3x2", "e5m2x2"};
  return kNames[static_cast<int>(t)];
}

std::string_view space_name(Space s) {
  static constexpr std::string_view kNames[] = {"generic", "reg", "sreg", "const", "global",
                                                "local", "param", "shared", "tex"};
  return kNames[static_cast<int>(s)];
}

int Module::find_function(std::string_view name) const {
  for (std::size_t i = 0; i < functions.size(); ++i)
    if (functions[i].name == name) return static_cast<int>(i);
  return -1;
}

std::string Module::describe(const SourceLoc& loc) const {
  if (!loc.known()) return "";
  auto it = files.find(loc.file);
  std::string file = it == files.end() ? "file" + std::to_string(loc.file) : it->second;
  auto slash = file.find_last_of('/');
  if (slash != std::string::npos) file = file.substr(slash + 1);
  return file + ":" + std::to_string(loc.line);
}

std::string Module::describe(const Instruction& inst) const {
  std::string ptx = path;
  auto slash = ptx.find_last_of('/');
  if (slash != std::string::npos) ptx = ptx.substr(slash + 1);
  std::string out = ptx + ":" + std::to_string(inst.ptx_line);
  std::string src = describe(inst.debug.loc);
  if (!src.empty()) {
    out += " (" + src;
    if (inst.debug.inlined()) out += ", inlined at " + describe(inst.debug.outer);
    out += ")";
  }
  return out;
}

}  // namespace warpscope::ptx
