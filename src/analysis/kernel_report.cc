// kernel_report.cc: from per-instruction costs to per-line and per-kernel figures.
#include "analysis/kernel_report.h"

#include <cxxabi.h>

#include "support/kernel_name.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cmath>
#include <functional>
#include <tuple>

#include "ptx/source_position.h"

namespace warpscope::analysis {

const std::vector<std::string>& kernel_metric_names() {
  static const std::vector<std::string> names = {
      "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld",  "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld",
      "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st",  "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st",
      "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom",
      "smsp__inst_executed_op_ldsm",
      // wgmma's shared-memory operands (HGMMA/QGMMA), and its warp-level instructions
      // (four per warpgroup); ncu names to be confirmed on the H200 (see README, Tensor cores).
      "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_gmma",
      "smsp__sass_inst_executed_op_shared_gmma",
      "l1tex__t_requests_pipe_lsu_mem_global_op_ld",       "l1tex__t_sectors_pipe_lsu_mem_global_op_ld",
      "l1tex__t_requests_pipe_lsu_mem_global_op_st",       "l1tex__t_sectors_pipe_lsu_mem_global_op_st",
      "l1tex__t_requests_pipe_lsu_mem_global_op_red",      "l1tex__t_sectors_pipe_lsu_mem_global_op_red",
      "l1tex__t_requests_pipe_lsu_mem_global_op_atom",     "l1tex__t_sectors_pipe_lsu_mem_global_op_atom",
      kLdgstsWavefronts, kLdgstsConflicts,
      kTmaLoads, kTmaLoadsIssued, kTmaLoadSectors, kTmaLoadBytes,
      kTmaStores, kTmaStoresIssued, kTmaStoreSectors, kTmaStoreBytes,
      kTmaReductionsIssued, kTmaReductionSectors, kTmaReductionBytes,
  };
  return names;
}

namespace {

constexpr const char* kGenericAtomWavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom";

// Adds one instruction's figures to a metric map (ncu names, and Source-page names).
void add_metrics(Metrics& m, const InstructionCost& c, double scale) {
  auto add = [&](const std::string& name, std::uint64_t v) {
    m[name] += static_cast<long long>(std::llround(static_cast<double>(v) * scale));
  };
  const std::string suffix(model::ncu_op_suffix(c.op));
  if (c.async_copy && model::space_of(c.op) == model::Space::Shared) {
    // LDGSTS's shared write: wavefronts of its own, on the Source page like any other.
    add(kLdgstsWavefronts, c.wavefronts);
    add(kLdgstsConflicts, c.wavefronts - c.ideal_wavefronts);
    add(kSourceWavefronts, c.wavefronts);
    add(kSourceWavefrontsIdeal, c.source_ideal_wavefronts);
  } else if (model::space_of(c.op) == model::Space::Shared) {
    add("l1tex__data_pipe_lsu_wavefronts_mem_" + suffix, c.wavefronts + c.generic_wavefronts);
    add("l1tex__data_bank_conflicts_pipe_lsu_mem_" + suffix, c.wavefronts - c.ideal_wavefronts);
    if (c.op == model::MemOp::LdMatrix) add("smsp__inst_executed_op_ldsm", c.executions);
    if (c.op == model::MemOp::Gmma) add("smsp__sass_inst_executed_op_shared_gmma", c.warp_instructions);
    add(kSourceWavefronts, c.wavefronts);
    add(kSourceWavefrontsIdeal, c.source_ideal_wavefronts);
  } else {
    // A global access (LDGSTS's global read among them: it counts as op_ld). The kernel
    // counter counts an atomic's sectors per pass (InstructionCost::l1_sectors), a .cg
    // LDGSTS's once per 32-byte shared chunk they land in, as its Source page does (H200:
    // Triton's masked persistent GEMM, 146400 where the bytes read give 145320; docs/hopper.md).
    add("l1tex__t_requests_pipe_lsu_mem_" + suffix, c.requests);
    add("l1tex__t_sectors_pipe_lsu_mem_" + suffix,
        c.async_copy ? static_cast<std::uint64_t>(static_cast<std::int64_t>(c.l1_sectors) + c.source_sectors_extra) : c.l1_sectors);
    if (c.generic_wavefronts > 0) add(kGenericAtomWavefronts, c.generic_wavefronts);
    add(kSourceSectors, static_cast<std::uint64_t>(static_cast<std::int64_t>(c.sectors) + c.source_sectors_extra));
    add(kSourceSectorsIdeal, c.ideal_sectors);
  }
}

// `executions`: the warps that reached the instruction (its guard false in some).
void add_bulk_metrics(Metrics& m, const BulkCost& c, std::uint64_t executions, double scale) {
  auto add = [&](const char* name, std::uint64_t v) {
    m[name] += static_cast<long long>(std::llround(static_cast<double>(v) * scale));
  };
  const std::uint64_t warp_executions = executions - std::min(executions, c.warp_issues) + c.issues;
  using K = emu::BulkCopyEvent::Kind;
  if (c.kind == K::Load) {
    add(kTmaLoads, warp_executions);
    add(kTmaLoadsIssued, c.issues);
    add(kTmaLoadSectors, c.global_sectors);
    add(kTmaLoadBytes, c.global_sectors * 32);
  } else if (c.kind == K::Store) {
    add(kTmaStores, warp_executions);
    add(kTmaStoresIssued, c.issues);
    add(kTmaStoreSectors, c.global_sectors);
    add(kTmaStoreBytes, c.global_bytes);
  } else if (c.kind == K::Reduce) {
    add(kTmaStores, warp_executions);  // a guess: no counter of executions for reductions
    add(kTmaReductionsIssued, c.issues);
    add(kTmaReductionSectors, c.global_sectors);
    add(kTmaReductionBytes, c.global_bytes);
  }
}

// The line an instruction is reported on without a listing: its own .loc, also for inlined
// code (ncu's Source page shows an inlined instruction on its innermost line; at a call site
// only where ptxas's line table has a row for it, which only the SASS tells: SassPlan).
ptx::SourceLoc line_loc(const ptx::Instruction& inst) { return inst.debug.loc; }

std::string file_name(const ptx::Module& module, int file) {
  auto it = module.files.find(file);
  return it == module.files.end() ? std::string() : it->second;
}

}  // namespace

std::string KernelReport::buffer_display_name(const std::string& buffer) const {
  // "arg<i>" or "arg<i>.<field>", as emu::buffer_name makes them.
  if (buffer.rfind("arg", 0) != 0 || buffer.size() < 4 || !std::isdigit(static_cast<unsigned char>(buffer[3])))
    return buffer;
  std::size_t end = 3, index = 0;
  while (end < buffer.size() && std::isdigit(static_cast<unsigned char>(buffer[end])) && index < 100000)
    index = index * 10 + static_cast<std::size_t>(buffer[end++] - '0');
  if (end != buffer.size() && buffer[end] != '.') return buffer;
  if (index >= parameter_names.size() || parameter_names[index].empty()) return buffer;
  return parameter_names[index] + buffer.substr(end);
}

std::string KernelReport::region_display_name(int region) const {
  if (region < 0 || static_cast<std::size_t>(region) >= regions.size()) return "";
  const emu::Region& r = regions[static_cast<std::size_t>(region)];
  if (r.space == model::Space::Global) return buffer_display_name(r.name);
  // A function-local static is _ZZ <function> E <length> <name> [discriminator].
  int status = 0;
  char* demangled = abi::__cxa_demangle(r.name.c_str(), nullptr, nullptr, &status);
  if (status != 0 || demangled == nullptr) return r.name;
  std::string text(demangled);
  std::free(demangled);
  const auto colon = text.rfind("::");
  return colon == std::string::npos ? text : text.substr(colon + 2);
}

bool KernelReport::failed() const {
  return std::any_of(diagnostics.begin(), diagnostics.end(),
                     [](const emu::Diagnostic& d) { return d.severity == emu::Diagnostic::Severity::Error; });
}

KernelReport build_kernel_report(const ptx::Module& module, std::string kernel, const emu::LaunchConfig& launch,
                                 emu::RunReport& run, std::uint64_t blocks_total, const SourceLines& source_lines,
                                 const SassPlan* plan) {
  KernelReport r;
  r.kernel = kernel_display_name(kernel);
  r.kernel_symbol = std::move(kernel);
  r.ptx_file = module.path;
  r.launch = launch;
  r.blocks_total = blocks_total;
  r.blocks_run = run.blocks_run;
  r.scale = run.blocks_run == 0 ? 0.0 : static_cast<double>(blocks_total) / static_cast<double>(run.blocks_run);
  r.diagnostics = run.diagnostics;
  r.regions = run.regions;
  r.warp_instructions = run.warp_instructions;
  r.thread_instructions = run.thread_instructions;
  r.seconds = run.seconds;
  r.workers = run.workers;

  // The workers' per-instruction costs, merged (pricing is done; no architecture needed here).
  std::vector<InstructionCost> merged;
  std::vector<BulkCost> bulk;
  for (auto& l : run.listeners)
    if (auto* c = dynamic_cast<CostListener*>(l.get())) {
      const auto& costs = c->instructions();
      if (merged.size() < costs.size()) merged.resize(costs.size());
      for (std::size_t pc = 0; pc < costs.size(); ++pc) merged[pc].merge(costs[pc]);
      // cp.async's shared writes after every instruction's slots (slot_of), one per pc.
      const std::size_t writes_at = slot_of(static_cast<std::uint32_t>(run.instructions.size()), InstructionSlot::Own);
      const auto& writes = c->ldgsts_writes();
      if (merged.size() < writes_at + writes.size()) merged.resize(writes_at + writes.size());
      for (std::size_t pc = 0; pc < writes.size(); ++pc) merged[writes_at + pc].merge(writes[pc]);
      const auto& copies = c->bulk_copies();
      if (bulk.size() < copies.size()) bulk.resize(copies.size());
      for (std::size_t pc = 0; pc < copies.size(); ++pc) bulk[pc].merge(copies[pc]);
    }

  // A wgmma publishes its core matrices in several events: its instruction count is the
  // emulator's (every warp of the warpgroup executes it).
  // (Costs are kept per slot, two per pc: slot_of in cost_listener.h.)
  for (std::size_t slot = 0; slot < merged.size(); ++slot) {
    const std::size_t pc = slot / 2;  // the ldgsts writes' slots lie past every pc
    if (pc < run.executed.size() && merged[slot].used() && merged[slot].op == model::MemOp::Gmma)
      merged[slot].warp_instructions = run.executed[pc];
  }
  for (const std::string& name : kernel_metric_names()) r.metrics[name] = 0;
  std::map<std::pair<int, int>, LineReport> lines;  // (file, line) -> report
  std::map<int, std::vector<std::string>> sources;
  // A line of the report: (file, line) from the PTX's .file table; files only the SASS names
  // (matched to the PTX's by base name when it has them) get keys below -1.
  std::map<std::string, int> sass_files;
  auto line_at = [&](int key_file, int key_line, const std::string& file, int line_no) -> LineReport& {
    LineReport& line = lines[std::make_pair(key_file, key_line)];
    if (line.line == 0 && line.file.empty()) {
      line.file = file;
      line.line = line_no;
      if (source_lines) {
        auto it = sources.find(key_file);
        if (it == sources.end()) {
          it = sources.emplace(key_file, source_lines(line.file)).first;
          if (!it->second.empty()) r.sources.push_back({line.file, it->second});
        }
        if (line.line >= 1 && static_cast<std::size_t>(line.line) <= it->second.size())
          line.source = it->second[static_cast<std::size_t>(line.line - 1)];
      }
    }
    return line;
  };
  auto note_call_site = [](LineReport& line, const std::string& site) {
    if (std::find(line.also_counted_at.begin(), line.also_counted_at.end(), site) == line.also_counted_at.end())
      line.also_counted_at.push_back(site);
  };
  // The lines an instruction counts on, each with its share of the cost. With a plan: the
  // lines ncu shows its SASS at. Else its own, and for inlined code its outermost call site.
  auto lines_of = [&](const ptx::Instruction& inst) {
    std::vector<std::pair<LineReport*, double>> out;
    if (const std::vector<LineShare>* shares = plan ? plan->lines_of(&inst) : nullptr) {
      for (const LineShare& share : *shares) {
        std::vector<LineReport*> here;
        for (const sass::SassLoc& l : share.lines) {
          int file = 0;
          for (const auto& [index, name] : module.files)
            if (sass::base_name(name) == sass::base_name(l.file)) file = index;
          if (file == 0) file = sass_files.emplace(l.file, -2 - static_cast<int>(sass_files.size())).first->second;
          LineReport& line = line_at(file, l.line, file > 0 ? file_name(module, file) : l.file, l.line);
          if (file > 0 && inst.debug.loc.file == file && inst.debug.loc.line == l.line && inst.debug.loc.column > 0 &&
              (line.column == 0 || inst.debug.loc.column < line.column))
            line.column = inst.debug.loc.column;
          here.push_back(&line);
          out.emplace_back(&line, share.weight);
        }
        // A toolkit header's line names the user's lines it is also counted at.
        for (LineReport* h : here)
          if (ptx::is_toolkit_header(h->file))
            for (LineReport* u : here)
              if (!ptx::is_toolkit_header(u->file)) note_call_site(*h, ptx::display_file(u->file) + ":" + std::to_string(u->line));
      }
      return out;
    }
    std::vector<ptx::SourceLoc> locs{line_loc(inst)};
    if (inst.debug.inlined() && inst.debug.outer.known()) locs.push_back(inst.debug.outer);
    for (const ptx::SourceLoc& loc : locs) {
      // Without .loc, each PTX line is its own line of the report (file key -1: the PTX).
      LineReport& line = loc.known() ? line_at(loc.file, loc.line, file_name(module, loc.file), loc.line)
                                     : line_at(-1, inst.ptx_line, module.path, inst.ptx_line);
      if (loc.known() && loc.column > 0 && (line.column == 0 || loc.column < line.column)) line.column = loc.column;
      // A toolkit header's line names the user's call site it is also counted at.
      if (locs.size() > 1 && loc == locs[0] && ptx::is_toolkit_header(line.file) &&
          !ptx::is_toolkit_header(file_name(module, locs[1].file)))
        note_call_site(line, ptx::display_file(file_name(module, locs[1].file)) + ":" + std::to_string(locs[1].line));
      out.emplace_back(&line, 1.0);
    }
    return out;
  };
  for (const InstructionCost& c : merged) {
    if (!c.used() || c.instruction == nullptr) continue;
    if (c.timing_dependent) {
      Metrics mine;
      add_metrics(mine, c, r.scale);
      for (const auto& [name, v] : mine)
        if (v != 0 && name.find("__") != std::string::npos) r.timing_dependent_metrics.insert(name);
    }
    add_metrics(r.metrics, c, r.scale);
    r.timing_dependent = r.timing_dependent || c.timing_dependent;
    for (auto& [line, weight] : lines_of(*c.instruction)) {
      add_metrics(line->metrics, c, r.scale * weight);
      line->excess_wavefronts += static_cast<std::uint64_t>(std::llround(static_cast<double>(c.excess_wavefronts()) * weight));
      line->excess_sectors += static_cast<std::uint64_t>(std::llround(static_cast<double>(c.excess_sectors()) * weight));
      if (c.worst_cost.shared) line->conflict_degree = std::max(line->conflict_degree, c.worst_cost.shared->worst_degree);
      line->timing_dependent = line->timing_dependent || c.timing_dependent;
      // A CAS loop's load is listed after its atomic, named for it.
      LineInstruction li{c.companion ? c.instruction->text + " (CAS loop load)" : c.instruction->text,
                         c.instruction->ptx_line, c};
      if (!line->worst || c.worst_excess > line->worst->cost.worst_excess) line->worst = li;
      line->instructions.push_back(std::move(li));
    }
  }
  for (std::size_t pc = 0; pc < bulk.size(); ++pc) {
    const BulkCost& c = bulk[pc];
    if (!c.used() || c.instruction == nullptr) continue;
    std::uint64_t executions = pc < run.executed.size() ? run.executed[pc] : c.warp_issues;
    // A predicated UTMALDG runs in every warp that reached the branch the PTX puts around it.
    if (c.predicated)
      for (std::size_t b = std::min(pc, run.instructions.size()); b-- > 0 && pc - b <= 16;) {
        const ptx::Instruction* inst = run.instructions[b];
        if (inst == nullptr || inst->opcode != ptx::Opcode::Bra || inst->guard == ptx::kNoReg) continue;
        executions = std::max(executions, run.executed[b]);
        break;
      }
    add_bulk_metrics(r.metrics, c, executions, r.scale);
    for (auto& [line, weight] : lines_of(*c.instruction)) {
      add_bulk_metrics(line->metrics, c, executions, r.scale * weight);
      line->bulk_copies.push_back(LineBulkCopy{c.instruction->text, c.instruction->ptx_line, c});
    }
  }
  // Bulk copies no lane ever issued (a pipeline's loads for stages past the last k step, their
  // guard false in every warp): their warp executions still count (H200, Triton's fp8 TMA GEMM:
  // the loop's two UTMALDG, never issued, 32 executions each).
  for (std::size_t pc = 0; pc < run.instructions.size() && pc < run.executed.size(); ++pc) {
    const ptx::Instruction* inst = run.instructions[pc];
    if (inst == nullptr || run.executed[pc] == 0 || (pc < bulk.size() && bulk[pc].used())) continue;
    BulkCost c;
    c.instruction = inst;
    using K = emu::BulkCopyEvent::Kind;
    switch (inst->opcode) {
      case ptx::Opcode::CpAsyncBulkTensor:
      case ptx::Opcode::CpAsyncBulk: c.kind = inst->space == ptx::Space::Shared ? K::Load : K::Store; break;
      case ptx::Opcode::CpReduceAsyncBulkTensor:
      case ptx::Opcode::CpReduceAsyncBulk: c.kind = K::Reduce; break;
      default: continue;
    }
    add_bulk_metrics(r.metrics, c, run.executed[pc], r.scale);
    for (auto& [line, weight] : lines_of(*inst)) add_bulk_metrics(line->metrics, c, run.executed[pc], r.scale * weight);
  }
  for (auto& [key, line] : lines) r.lines.push_back(std::move(line));
  // Per array: each instruction once (the lines count inlined code twice).
  std::map<int, ArrayTotals> arrays;
  for (const InstructionCost& c : merged) {
    if (!c.used() || c.instruction == nullptr || c.async_copy || c.region < 0) continue;
    ArrayTotals& a = arrays[c.region];
    a.region = c.region;
    auto scaled = [&](std::uint64_t v) { return static_cast<long long>(std::llround(static_cast<double>(v) * r.scale)); };
    if (model::space_of(c.op) == model::Space::Shared) {
      a.wavefronts += scaled(c.wavefronts);
      a.ideal_wavefronts += scaled(c.ideal_wavefronts);
    } else {
      a.sectors += scaled(c.sectors);
      a.ideal_sectors += scaled(c.ideal_sectors);
    }
  }
  for (auto& [region, a] : arrays) r.arrays.push_back(a);
  // Worst first: excess shared wavefronts, then excess sectors, then position.
  std::stable_sort(r.lines.begin(), r.lines.end(), [](const LineReport& a, const LineReport& b) {
    const auto ka = std::make_tuple(a.excess_wavefronts + a.excess_sectors, a.excess_wavefronts);
    const auto kb = std::make_tuple(b.excess_wavefronts + b.excess_sectors, b.excess_wavefronts);
    if (ka != kb) return ka > kb;
    return std::tie(a.file, a.line) < std::tie(b.file, b.line);
  });
  return r;
}

}  // namespace warpscope::analysis
