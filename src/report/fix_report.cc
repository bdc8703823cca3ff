// fix_report.cc: `warpscope fix` as text and as JSON.
#include "report/fix_report.h"

#include <sstream>
#include <variant>

#include "layout/layout_code.h"
#include "ptx/source_position.h"
#include "report/kernel_json.h"

namespace warpscope::report {

namespace {

layout::ArrayShape shape_of(const analysis::ArrayFix& a) {
  return {a.name, a.search.elem_bytes, a.size, a.element_type, a.dynamic};
}

nlohmann::json occupancy_json(const analysis::Occupancy& o) {
  nlohmann::json limits{{"warps", o.by_warps}, {"blocks", o.by_blocks}, {"shared_memory", o.by_shared}};
  if (o.by_registers >= 0) limits["registers"] = o.by_registers;
  return {{"blocks_per_sm", o.blocks_per_sm}, {"warps_per_sm", o.warps_per_sm},
          {"shared_per_block", o.shared_per_block}, {"limited_by", o.limited_by},
          {"registers_per_thread", o.registers_per_thread}, {"blocks_by_limit", std::move(limits)}};
}

std::string registers_text(const analysis::FixReport& r) {
  if (r.registers_per_thread <= 0)
    return "registers not counted" + (r.registers_note.empty() ? std::string() : " (" + r.registers_note + ")");
  return std::to_string(r.registers_per_thread) + " registers per thread" +
         (r.registers_note.empty() ? std::string() : " (" + r.registers_note + ")");
}

std::string kernel_occupancy_text(const analysis::FixReport& r) {
  const auto& b = r.occupancy_before;
  const auto& f = r.occupancy_after;
  std::ostringstream s;
  s << "occupancy: ";
  if (b.blocks_per_sm == f.blocks_per_sm && b.limited_by == f.limited_by)
    s << b.blocks_per_sm << " blocks (" << b.warps_per_sm << " warps) per SM before and after, limited by "
      << b.limited_by;
  else
    s << b.blocks_per_sm << " blocks (" << b.warps_per_sm << " warps) per SM, limited by " << b.limited_by << " -> "
      << f.blocks_per_sm << " (" << f.warps_per_sm << " warps), limited by " << f.limited_by;
  s << "; " << registers_text(r) << "\n";
  return s.str();
}

nlohmann::json price_json(const analysis::GlobalPrice& p) {
  return {{"sectors", p.sectors}, {"requests", p.requests}, {"ideal", p.ideal}};
}

nlohmann::json global_json(const std::vector<analysis::GlobalAdvice>& advice) {
  nlohmann::json out = nlohmann::json::array();
  for (const analysis::GlobalAdvice& a : advice) {
    nlohmann::json suggestions = nlohmann::json::array();
    for (const analysis::GlobalChange& c : a.suggestions)
      suggestions.push_back({{"change", c.change}, {"sectors", c.after.sectors}, {"requests", c.after.requests},
                             {"saved", c.saved()}, {"before", price_json(c.before)}, {"detail", c.detail}});
    nlohmann::json j{{"file", a.file}, {"line", a.line}, {"column", a.column}, {"pc", a.pc}, {"pcs", a.pcs},
                     {"instruction", a.instruction}, {"sass", a.sass}, {"before", price_json(a.before)},
                     {"suggestions", std::move(suggestions)}};
    if (!a.note.empty()) j["note"] = a.note;
    if (a.after) j["after"] = price_json(*a.after);
    out.push_back(std::move(j));
  }
  return out;
}

void global_text(std::ostringstream& s, const analysis::FixReport& r) {
  const std::vector<analysis::GlobalAdvice>& advice = r.global;
  if (r.global_blocks_recorded < r.blocks_run)
    s << "\n(global accesses recorded for " << r.global_blocks_recorded << " of " << r.blocks_run
      << " blocks run, to bound memory; the figures below are scaled to the grid)";
  if (advice.empty()) {
    s << "\nglobal memory: every instruction moves its ideal sectors\n";
    return;
  }
  s << "\nglobal memory (uncoalesced lines; each change re-priced on every recorded access, the first also by "
       "re-running the kernel with it):\n";
  for (const analysis::GlobalAdvice& a : advice) {
    s << "  " << (a.file.empty() ? "PTX line" : a.file.substr(a.file.find_last_of('/') + 1))
      << (a.file.empty() ? " " : ":") << a.line
      << "  " << a.instruction << (a.sass.empty() ? "" : " (SASS " + a.sass + ")")
      << (a.pcs.size() > 1 ? " x" + std::to_string(a.pcs.size()) : std::string()) << ": " << a.before.sectors
      << " sectors (ideal " << a.before.ideal << "), " << a.before.requests << " requests\n";
    if (!a.note.empty()) s << "    " << a.note << "\n";
    if (a.suggestions.empty())
      s << "    no change found that saves at least " << r.min_gain * 100 << "% of its sectors\n";
    for (const analysis::GlobalChange& c : a.suggestions)
      s << "    " << c.change << ": " << c.before.sectors << " -> " << c.after.sectors << " sectors, "
        << c.before.requests << " -> " << c.after.requests << " requests, saves " << c.saved() << "\n"
        << "      " << c.detail << "\n";
    if (a.after && !a.suggestions.empty())
      s << "    the kernel re-run with the first applied: " << a.after->sectors << " sectors (ideal " << a.after->ideal
        << "), " << a.after->requests << " requests\n";
  }
}

// Hot bins: what same-address lanes cost, and each rewrite's price.
void atomics_text(std::ostringstream& s, const analysis::ArrayFix& a) {
  const analysis::AtomicAdvice& x = *a.atomics;
  s << "  atomics: " << x.before << " wavefronts of its recorded accesses (ideal " << x.ideal << "), " << x.same_address
    << " of them lanes waiting on the same address (hot bins); rewrites, each re-priced on every recorded access:\n";
  for (const analysis::AtomicAlternative& alt : x.alternatives) {
    s << "    " << alt.change << ": " << x.before << " -> " << alt.wavefronts << " wavefronts, +" << alt.extra_bytes
      << " B" << (alt.offered ? "" : "  (not offered: " + alt.note + ")") << "\n";
    if (alt.offered) s << "      " << alt.code << "\n";
  }
  if (a.atomics_applied)
    s << "  the re-run applies " << x.alternatives.front().change << ": " << a.before << " -> " << a.after
      << " shared wavefronts measured\n";
}

std::string occupancy_text(const analysis::ArrayFix& a) {
  const auto& b = a.occupancy_before;
  const auto& f = a.occupancy_after;
  std::ostringstream s;
  if (b.blocks_per_sm == f.blocks_per_sm)
    s << b.blocks_per_sm << " blocks (" << b.warps_per_sm << " warps) per SM before and after, limited by "
      << f.limited_by;
  else
    s << "COSTS OCCUPANCY: " << b.blocks_per_sm << " -> " << f.blocks_per_sm << " blocks per SM (" << b.warps_per_sm
      << " -> " << f.warps_per_sm << " warps), limited by " << f.limited_by;
  return s.str();
}

// For an array the hardware lays out (TMA writes it, wgmma reads it): why only its swizzle
// modes were tried, what to set, and the alignment the mode needs.
std::string hardware_note(const analysis::ArrayFix& a) {
  if (a.hardware.empty()) return "";
  std::string note = "laid out by " + a.hardware + ": only the hardware's swizzle modes keep a TMA box and a "
                     "wgmma descriptor whole (no padding or skew)";
  if (a.chosen)
    if (const auto* sw = std::get_if<layout::Swizzle>(&a.chosen->layout)) {
      const std::uint64_t align = std::uint64_t{1} << (sw->base + sw->shift + sw->bits);
      const std::string mode = layout::tma_mode(*sw);
      note += "; set " + mode + " in the tensor map (tmap: swizzle=" + std::to_string(16 << sw->bits) +
              "B) and in the wgmma descriptors, and read it with the same XOR; the mode needs the array " +
              std::to_string(align) + "-byte aligned in shared memory";
      note += a.base % align == 0 ? " (it is: offset " + std::to_string(a.base) + ")"
                                  : ", it starts at offset " + std::to_string(a.base) + ": align it (__align__(" +
                                        std::to_string(align) + "))";
    }
  return note;
}

}  // namespace

nlohmann::json fix_json(const analysis::FixReport& r) {
  nlohmann::json arrays = nlohmann::json::array();
  for (const analysis::ArrayFix& a : r.arrays) {
    nlohmann::json j{{"array", a.name}, {"symbol", a.symbol}, {"size", a.size}, {"element_bytes", a.search.elem_bytes},
                     {"element_type", a.element_type}, {"extern", a.dynamic},
                     {"candidates_over_limit", a.search.over_limit}, {"candidates_below_min_gain", a.search.too_small},
                     {"before", a.before}, {"ideal", a.ideal}, {"after", a.after}};
    const layout::Layout chosen = a.chosen ? a.chosen->layout : layout::Layout{layout::Identity{}};
    j["layout"] = layout::describe(chosen);
    j["code"] = a.chosen ? layout::layout_code(chosen, shape_of(a)) : "";
    if (const std::string cute = layout::cute_code(chosen, shape_of(a)); !cute.empty()) j["cute"] = cute;
    const std::uint64_t extra = a.chosen ? a.chosen->extra_bytes : 0;
    j["smem_bytes"] = {{"before", a.size}, {"after", a.size + extra}, {"extra", extra}};
    j["occupancy"] = {{"before", occupancy_json(a.occupancy_before)},
                      {"after", occupancy_json(a.occupancy_after)},
                      {"costs_occupancy", a.occupancy_after.blocks_per_sm < a.occupancy_before.blocks_per_sm}};
    nlohmann::json candidates = nlohmann::json::array();
    for (const auto& c : a.search.best)
      candidates.push_back({{"layout", layout::describe(c.layout)}, {"code", layout::layout_code(c.layout, shape_of(a))},
                            {"wavefronts", c.wavefronts}, {"extra_bytes", c.extra_bytes},
                            {"index_arithmetic", c.arithmetic}});
    j["candidates"] = std::move(candidates);
    if (!a.hardware.empty()) j["hardware"] = {{"laid_out_by", a.hardware}, {"note", hardware_note(a)}};
    if (a.atomics) {
      nlohmann::json alts = nlohmann::json::array();
      for (const auto& alt : a.atomics->alternatives)
        alts.push_back({{"change", alt.change}, {"wavefronts", alt.wavefronts}, {"extra_bytes", alt.extra_bytes},
                        {"offered", alt.offered}, {"code", alt.code}, {"note", alt.note}});
      j["atomics"] = {{"before", a.atomics->before}, {"ideal", a.atomics->ideal},
                      {"same_address", a.atomics->same_address}, {"rewrites", std::move(alts)},
                      {"applied", a.atomics_applied}};
    }
    j["candidates_tried"] = a.search.candidates;
    j["recorded_before"] = a.search.before;
    arrays.push_back(std::move(j));
  }
  return {{"kernel", r.after.kernel}, {"arrays", std::move(arrays)}, {"global", global_json(r.global)},
          {"global_blocks_recorded", r.global_blocks_recorded},
          {"occupancy", {{"before", occupancy_json(r.occupancy_before)}, {"after", occupancy_json(r.occupancy_after)},
                         {"registers_per_thread", r.registers_per_thread}, {"registers_note", r.registers_note}}},
          {"shared_bytes_per_block", {{"before", r.shared_bytes_before}, {"after", r.shared_bytes_after}}},
          {"kernel_before", kernel_json(r.before)}, {"kernel_after", kernel_json(r.after)}};
}

std::string fix_text(const analysis::FixReport& r) {
  std::ostringstream s;
  s << "warpscope fix: " << r.after.kernel << " (" << r.after.priced_from << ")\n";
  s << kernel_occupancy_text(r);
  if (r.arrays.empty()) s << "no shared array has bank conflicts: no layout to change\n";
  for (const analysis::ArrayFix& a : r.arrays) {
    s << "\n" << a.name << " (" << (a.dynamic ? "extern, " : "") << a.size << " B, "
      << (a.element_type.empty() ? std::to_string(a.search.elem_bytes) + "-byte" : a.element_type) << " elements): " << a.before
      << " -> " << a.after << " shared wavefronts (ideal " << a.ideal << "), after measured by re-running the kernel\n";
    if (a.atomics) atomics_text(s, a);
    if (!a.chosen) {
      s << "  no candidate layout of " << a.search.candidates << " lowers its wavefronts";
      if (a.search.too_small > 0 || a.search.over_limit > 0) {
        s << " enough to offer (";
        if (a.search.too_small > 0)
          s << a.search.too_small << " save less than " << r.min_gain * 100 << "% of " << a.search.before
            << " wavefronts, the --min-gain";
        if (a.search.too_small > 0 && a.search.over_limit > 0) s << "; ";
        if (a.search.over_limit > 0)
          s << a.search.over_limit << " would pass the block's " << r.max_shared_per_block << " bytes of shared memory";
        s << ")";
      }
      s << "\n";
      continue;
    }
    if (a.atomics_applied) s << "  (layouts, for comparison; the re-run applies the atomics rewrite above)\n";
    s << "  layout   " << layout::describe(a.chosen->layout) << "\n";
    if (const std::string note = hardware_note(a); !note.empty()) s << "  hardware " << note << "\n";
    s << "  code     " << layout::layout_code(a.chosen->layout, shape_of(a)) << "\n";
    if (const std::string cute = layout::cute_code(a.chosen->layout, shape_of(a)); !cute.empty())
      s << "  cute     " << cute << "\n";
    s << "  shared   +" << a.chosen->extra_bytes << " B; " << occupancy_text(a) << "\n";
    s << "  best of " << a.search.candidates << " layouts (wavefronts of this array's accesses, re-priced):\n";
    for (const auto& c : a.search.best)
      s << "    " << c.wavefronts << "  +" << c.extra_bytes << " B  arith " << c.arithmetic << "  "
        << layout::describe(c.layout) << ": " << layout::layout_code(c.layout, shape_of(a)) << "\n";
  }
  global_text(s, r);
  s << "\nkernel after (re-run with every chosen layout and each line's first global change applied):\n";
  auto value = [](const analysis::Metrics& m, const std::string& name) {
    auto it = m.find(name);
    return it == m.end() ? 0LL : it->second;
  };
  for (const std::string& name : analysis::kernel_metric_names())
    if (value(r.before.metrics, name) != 0 || value(r.after.metrics, name) != 0)
      s << "  " << name << "  " << value(r.before.metrics, name) << " -> " << value(r.after.metrics, name) << "\n";
  return s.str();
}

}  // namespace warpscope::report
