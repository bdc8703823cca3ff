// sass_explain.cc: a developer's view of the SASS plan: for each PTX memory instruction of a
// kernel, the role the matcher gave it (sass_plan.h).
//
//   sass_explain KERNEL.ptx LISTING.sass [FUNCTION]
//   gemm_tiled  gemm_tiled.ptx:97   ld.shared.f32 [%r7]     gemm_tiled.cu:26  merge group 3 (16 B, static, part 0/4, anchor)
#include <fstream>
#include <iostream>
#include <sstream>

#include "analysis/sass_plan.h"
#include "ptx/parser.h"

namespace {

std::string read(const char* path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

const char* lowering_name(warpscope::analysis::AtomicLowering l) {
  using warpscope::analysis::AtomicLowering;
  switch (l) {
    case AtomicLowering::Native: return "native";
    case AtomicLowering::PopcInc: return "popc.inc";
    case AtomicLowering::Leader: return "elected lane";
    case AtomicLowering::LeaderWhenFull: return "elected lane when the warp is full";
    case AtomicLowering::CasLoop: return "CAS loop";
    case AtomicLowering::LeaderCasLoop: return "elected lane's CAS loop";
  }
  return "?";
}

}  // namespace

int main(int argc, char** argv) {
  using namespace warpscope;
  if (argc < 3) {
    std::cerr << "usage: sass_explain KERNEL.ptx LISTING.sass [FUNCTION]\n";
    return 2;
  }
  auto module = ptx::parse(read(argv[1]), argv[1]);
  if (!module) {
    std::cerr << module.error().render() << "\n";
    return 1;
  }
  auto listing = sass::parse_sass_listing(read(argv[2]));
  if (!listing) {
    std::cerr << listing.error().message << "\n";
    return 1;
  }
  const analysis::SassPlan plan = analysis::plan_from_sass(*module, *listing);
  std::cout << "groups " << plan.groups << ", reshaped " << plan.narrowed << ", dropped " << plan.dropped
            << ", atomics lowered " << plan.atomics_lowered << ", unmatched " << plan.unmatched_ptx << "\n";
  for (const ptx::Function& f : module->functions) {
    if (argc > 3 && f.name != argv[3]) continue;
    for (const ptx::Instruction& inst : f.body) {
      const bool mem = inst.opcode == ptx::Opcode::Ld || inst.opcode == ptx::Opcode::St ||
                       inst.opcode == ptx::Opcode::Atom || inst.opcode == ptx::Opcode::Red ||
                       inst.opcode == ptx::Opcode::TensormapReplace;
      if (!mem || inst.space == ptx::Space::Param || inst.space == ptx::Space::Local || inst.space == ptx::Space::Const)
        continue;
      std::cout << module->describe(inst) << "  " << inst.text << "  ";
      const analysis::InstructionPlan* r = plan.role(&inst);
      if (!r) {
        std::cout << "as is\n";
        continue;
      }
      if (r->has_atomic) {
        std::cout << lowering_name(r->atomic.lowering)
                  << (r->atomic.global_op == model::MemOp::GlobalReduction ? ", op_red" : ", op_atom")
                  << (r->atomic.shared_fallback ? ", shared fallback" : "")
                  << (r->atomic.from_sass ? "" : " (predicted)") << "\n";
        continue;
      }
      switch (r->action) {
        case analysis::InstructionPlan::Action::AsIs:
          std::cout << (r->unmatched ? "UNMATCHED" : "as is");
          if (r->unrolled >= 0) {  // "in unrolled loop 0: loop of 4, block of 2, block of 1"
            std::cout << " in unrolled loop " << r->unrolled << ":";
            const auto& regions = plan.unrolled_loops[static_cast<std::size_t>(r->unrolled)].regions;
            for (std::size_t k = 0; k < regions.size(); ++k)
              std::cout << (k ? ", " : " ") << (regions[k].loop ? "loop of " : "block of ") << regions[k].copies;
          }
          std::cout << "\n";
          break;
        case analysis::InstructionPlan::Action::Drop: std::cout << "dropped\n"; break;
        case analysis::InstructionPlan::Action::Merge:
          std::cout << "merge group " << r->merge.group << " (" << r->merge.width << " B, "
                    << (r->merge.dynamic ? "dynamic" : "static, part " + std::to_string(r->merge.part) + "/" +
                                                           std::to_string(r->merge.parts))
                    << (r->merge.anchor ? ", anchor" : "") << ")\n";
          break;
        case analysis::InstructionPlan::Action::Reshape:
          std::cout << "reshaped:";
          for (const auto& p : r->pieces)
            std::cout << " [" << p.offset << ", +" << p.width << ")"
                      << (p.merged ? " in group " + std::to_string(p.merge.group) + (p.merge.dynamic ? " (dynamic)" : "")
                                   : "");
          std::cout << "\n";
          break;
        case analysis::InstructionPlan::Action::Words:
          std::cout << "map words:";
          for (const auto& w : r->words) std::cout << (w.store ? " st" : " ld") << w.width << "@" << w.offset;
          std::cout << "\n";
          break;
      }
    }
  }
  return 0;
}
