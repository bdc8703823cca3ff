// layout_fix.cc: record, search, prove.
#include "analysis/layout_fix.h"

#include <cxxabi.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>
#include <memory>

#include "analysis/element_type.h"
#include "analysis/global_access_recorder.h"
#include "analysis/global_rewrite.h"
#include "analysis/remap_listener.h"
#include "analysis/shared_access_recorder.h"
#include "ptx/source_position.h"

namespace warpscope::analysis {

namespace {

struct Wavefronts {
  std::uint64_t total = 0, ideal = 0;
};

// Shared wavefronts per region over the run's CostListeners, scaled to the whole grid.
std::map<int, Wavefronts> wavefronts_by_region(const model::Arch& arch, const emu::RunReport& run, double scale) {
  CostListener merged(arch);
  for (const auto& l : run.listeners)
    if (const auto* c = dynamic_cast<const CostListener*>(l.get())) merged.merge(*c);
  std::map<int, Wavefronts> out;
  for (const InstructionCost& c : merged.instructions()) {
    if (!c.used() || c.async_copy || model::space_of(c.op) != model::Space::Shared) continue;
    out[c.region].total += c.wavefronts;
    out[c.region].ideal += c.ideal_wavefronts;
  }
  for (auto& [region, w] : out) {
    w.total = static_cast<std::uint64_t>(std::llround(static_cast<double>(w.total) * scale));
    w.ideal = static_cast<std::uint64_t>(std::llround(static_cast<double>(w.ideal) * scale));
  }
  return out;
}

// The arrays the hardware writes or reads in a layout of its own: TMA and bulk copies into
// shared memory (each copy instruction's first destination names its array), and wgmma's
// descriptor reads (recorded accesses of op Gmma).
std::map<int, std::string> hardware_arrays(const model::Arch& arch, const emu::RunReport& run,
                                           const std::map<int, std::vector<RecordedAccess>>& accesses) {
  CostListener merged(arch);
  for (const auto& l : run.listeners)
    if (const auto* c = dynamic_cast<const CostListener*>(l.get())) merged.merge(*c);
  std::map<int, std::set<std::string>> who;
  for (const BulkCost& c : merged.bulk_copies()) {
    if (!c.used() || !c.is_load()) continue;
    for (std::size_t i = 0; i < run.regions.size(); ++i) {
      const emu::Region& r = run.regions[i];
      if (r.space == model::Space::Shared && c.shared >= r.base && c.shared < r.base + r.size)
        who[static_cast<int>(i)].insert(c.tensor ? "TMA" : "bulk copies");
    }
  }
  for (const auto& [region, list] : accesses)
    for (const RecordedAccess& a : list)
      if (a.access.op == model::MemOp::Gmma) who[region].insert("wgmma");
  std::map<int, std::string> out;
  for (const auto& [region, names] : who) {
    std::string text;
    for (const std::string& n : names) text += (text.empty() ? "" : " and ") + n;
    out[region] = text;
  }
  return out;
}

// The array's element type in the user's words: the .cu's declaration, else what the PTX
// accesses of the element's width read, else a name for its size.
std::string element_type_of(const FixInputs& in, const emu::RunReport& run, const std::string& name,
                            const std::vector<RecordedAccess>& accesses, std::uint64_t elem_bytes) {
  if (in.source_lines)
    for (const auto& [index, path] : in.module.files) {
      if (ptx::is_toolkit_header(path)) continue;
      if (auto declared = declared_element_type(in.source_lines(path), name)) return *declared;
    }
  std::map<std::string, std::uint64_t> votes;
  for (const RecordedAccess& r : accesses) {
    if (r.pc >= run.instructions.size() || run.instructions[r.pc] == nullptr) continue;
    const ptx::Instruction& inst = *run.instructions[r.pc];
    const int vec = inst.vec;
    if (static_cast<std::uint64_t>(ptx::type_bits(inst.type) / 8 * std::max(1, vec)) != elem_bytes) continue;
    if (const std::string t = ptx_element_type(inst.type, vec); !t.empty()) votes[t] += r.count;
  }
  if (!votes.empty())
    return std::max_element(votes.begin(), votes.end(), [](const auto& a, const auto& b) { return a.second < b.second; })
        ->first;
  return sized_element_type(elem_bytes);
}

double scale_of(const FixInputs& in, const emu::RunReport& run) {
  return run.blocks_run == 0 ? 0.0 : static_cast<double>(in.blocks_total) / static_cast<double>(run.blocks_run);
}

}  // namespace

std::string array_name(const std::string& symbol) {
  int status = 0;
  char* demangled = abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status);
  if (status != 0 || demangled == nullptr) return symbol;
  std::string text(demangled);
  std::free(demangled);
  const auto colon = text.rfind("::");
  return colon == std::string::npos ? text : text.substr(colon + 2);
}

Expected<FixReport> fix_kernel(const FixInputs& in) {
  const model::Arch& arch = in.arch;
  const FusionPlan* plan = in.plan;
  // 1. The kernel as written: costs, and every shared access recorded.
  const auto global_count = GlobalAccessRecorder::shared_count();  // one budget for all workers
  auto first = in.run([&arch, plan, global_count] {
    return std::make_unique<TeeListener>(
        std::make_unique<CostListener>(arch, plan),
        std::make_unique<TeeListener>(std::make_unique<SharedAccessRecorder>(),
                                      std::make_unique<GlobalAccessRecorder>(
                                          GlobalAccessRecorder::kDefaultMaxExecutions, global_count)));
  });
  if (!first) return first.error();
  SharedAccessRecorder recorded;
  GlobalAccessRecorder global;
  for (auto& l : first->listeners) {
    auto* tee = dynamic_cast<TeeListener*>(l.get());
    if (tee == nullptr) continue;
    // The tree built just above: static casts, no lookup that could fail.
    auto* recorders = static_cast<TeeListener*>(tee->second());
    recorded.merge(*static_cast<SharedAccessRecorder*>(recorders->first()));
    global.merge(std::move(*static_cast<GlobalAccessRecorder*>(recorders->second())));
    l = tee->take_first();  // build_kernel_report reads CostListeners
  }
  FixReport report;
  const double scale = scale_of(in, *first);
  const auto before = wavefronts_by_region(arch, *first, scale);
  report.shared_bytes_before = first->shared_bytes;  // static, aligned, plus dynamic
  const std::uint64_t threads = in.launch.block.count();
  const int regs = in.registers_per_thread;
  report.registers_per_thread = regs;
  report.registers_note = in.registers_note;
  report.global_blocks_recorded = global.blocks_recorded();
  report.blocks_run = first->blocks_run;
  report.min_gain = in.min_gain;
  report.max_shared_per_block = static_cast<std::uint64_t>(arch.max_shared_per_block);
  const double global_scale = global.blocks_recorded() == 0 ? 0.0
                                                              : static_cast<double>(in.blocks_total) /
                                                                    static_cast<double>(global.blocks_recorded());
  report.global = advise_global(arch, in.module, global.instructions(), first->regions, global_scale,
                                GlobalAdviceOptions{in.min_gain});

  // 2. Search each array that loses wavefronts to conflicts.
  std::vector<RegionRemap> remaps;
  std::vector<AtomicRewrite> atomic_rewrites;
  const auto accesses = recorded.by_region();
  const auto hardware = hardware_arrays(arch, *first, accesses);
  for (const auto& [region, list] : accesses) {
    auto it = before.find(region);
    if (it == before.end() || it->second.total <= it->second.ideal) continue;
    const emu::Region& r = first->regions[static_cast<std::size_t>(region)];
    if (r.reserved) continue;  // the driver's scratch (cooperative groups), not the kernel's array
    ArrayFix fix;
    fix.region = region;
    fix.symbol = r.name;
    fix.name = array_name(r.name);
    fix.size = r.size;
    fix.base = r.base;
    if (auto h = hardware.find(region); h != hardware.end()) fix.hardware = h->second;
    for (const ptx::Variable& v : in.module.variables)
      if (v.name == r.name && v.space == ptx::Space::Shared) fix.dynamic = v.is_dynamic;
    fix.before = it->second.total;
    fix.ideal = it->second.ideal;
    // No layout may take the block past its shared-memory limit, counting the other arrays' changes.
    const std::uint64_t used = report.shared_bytes_before + report.shared_bytes_after;
    const std::uint64_t limit = report.max_shared_per_block;
    fix.search = search_layouts(arch, r, list,
                                SearchLimits{in.keep, used < limit ? limit - used : 0, in.min_gain, !fix.hardware.empty()});
    fix.element_type = element_type_of(in, *first, fix.name, list, fix.search.elem_bytes);
    fix.occupancy_before = occupancy(arch, report.shared_bytes_before, threads, regs);
    fix.occupancy_after = fix.occupancy_before;
    if (!fix.search.best.empty()) fix.chosen = fix.search.best.front();
    fix.atomics = advise_atomics(
        arch, AtomicAdviceInputs{r, list, fix.search.elem_bytes,
                                 static_cast<int>((threads + model::kWarpSize - 1) / model::kWarpSize), fix.name,
                                 fix.element_type, in.min_gain, used < limit ? limit - used : 0});
    const AtomicAlternative* best_atomic =
        fix.atomics && !fix.atomics->alternatives.empty() && fix.atomics->alternatives.front().offered
            ? &fix.atomics->alternatives.front()
            : nullptr;
    if (best_atomic != nullptr && (!fix.chosen || best_atomic->wavefronts < fix.chosen->wavefronts)) {
      fix.atomics_applied = true;
      atomic_rewrites.push_back(best_atomic->rewrite);
      fix.occupancy_after = occupancy(arch, report.shared_bytes_before + best_atomic->extra_bytes, threads, regs);
      report.shared_bytes_after += best_atomic->extra_bytes;
    } else if (fix.chosen) {
      remaps.push_back(RegionRemap{r.base, r.size, fix.chosen->layout});
      fix.occupancy_after = occupancy(arch, report.shared_bytes_before + fix.chosen->extra_bytes, threads, regs);
      report.shared_bytes_after += fix.chosen->extra_bytes;
    }
    report.arrays.push_back(std::move(fix));
  }
  report.shared_bytes_after += report.shared_bytes_before;
  report.occupancy_before = occupancy(arch, report.shared_bytes_before, threads, regs);
  report.occupancy_after = occupancy(arch, report.shared_bytes_after, threads, regs);

  // The global changes the proof applies: each line's best, one change per instruction.
  std::vector<GlobalRewrite> rewrites;
  std::vector<std::size_t> rewritten;  // report.global indexes
  {
    std::set<std::uint32_t> claimed;
    for (std::size_t i = 0; i < report.global.size(); ++i) {
      if (report.global[i].suggestions.empty()) continue;
      const GlobalRewrite& r = report.global[i].suggestions.front().rewrite;
      if (std::any_of(r.pcs.begin(), r.pcs.end(), [&](std::uint32_t pc) { return claimed.count(pc) > 0; })) continue;
      claimed.insert(r.pcs.begin(), r.pcs.end());
      rewrites.push_back(r);
      rewritten.push_back(i);
    }
  }

  // 3. Proof: the whole kernel again, every chosen layout and global change applied before pricing.
  const std::vector<emu::Region> regions = first->regions;
  auto second = in.run([&arch, plan, &remaps, &rewrites, &regions, &atomic_rewrites] {
    std::unique_ptr<emu::Listener> priced =
        std::make_unique<RemapListener>(std::make_unique<CostListener>(arch, plan), remaps);
    if (!atomic_rewrites.empty()) priced = std::make_unique<AtomicRewriteListener>(std::move(priced), atomic_rewrites);
    if (rewrites.empty()) return priced;
    return std::unique_ptr<emu::Listener>(
        std::make_unique<GlobalRewriteListener>(std::move(priced), rewrites, regions, arch));
  });
  if (!second) return second.error();
  for (auto& l : second->listeners) {
    if (auto* rewrite = dynamic_cast<GlobalRewriteListener*>(l.get())) l = rewrite->take_next();
    if (auto* atomic = dynamic_cast<AtomicRewriteListener*>(l.get())) l = atomic->take_next();
    if (auto* remap = dynamic_cast<RemapListener*>(l.get())) l = remap->take_cost();
  }
  // Each changed line's figures in the proof run.
  {
    CostListener merged(arch);
    for (const auto& l : second->listeners)
      if (const auto* c = dynamic_cast<const CostListener*>(l.get())) merged.merge(*c);
    const double s = scale_of(in, *second);
    for (std::size_t k = 0; k < rewritten.size(); ++k) {
      GlobalAdvice& a = report.global[rewritten[k]];
      GlobalPrice p;
      for (std::uint32_t pc : rewrites[k].pcs)
        if (const std::size_t slot = slot_of(pc, InstructionSlot::Own); slot < merged.instructions().size()) {
          const InstructionCost& c = merged.instructions()[slot];
          if (!c.used() || model::space_of(c.op) != model::Space::Global) continue;
          p.sectors += c.sectors;
          p.requests += c.requests;
          p.ideal += c.ideal_sectors;
        }
      auto scaled = [s](std::uint64_t v) { return static_cast<std::uint64_t>(std::llround(static_cast<double>(v) * s)); };
      a.after = GlobalPrice{scaled(p.sectors), scaled(p.requests), scaled(p.ideal)};
    }
  }
  const auto after = wavefronts_by_region(arch, *second, scale_of(in, *second));
  for (ArrayFix& fix : report.arrays) {
    auto it = after.find(fix.region);
    fix.after = it == after.end() ? 0 : it->second.total;
  }
  report.before = build_kernel_report(in.module, in.kernel, in.launch, *first, in.blocks_total, in.source_lines);
  report.after = build_kernel_report(in.module, in.kernel, in.launch, *second, in.blocks_total, in.source_lines);
  return report;
}

}  // namespace warpscope::analysis
