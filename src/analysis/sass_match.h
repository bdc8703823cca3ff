// sass_match.h: the pieces of plan_from_sass (sass_plan.h), each testable on its own.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "analysis/sass_plan.h"

namespace warpscope::analysis::detail {

// A source position as both sides name it: the file's base name and the line, and for inlined
// code the nearest call site (one helper inlined at several places is several positions).
struct LineKey {
  std::string file;
  int line = 0;
  std::string at_file;
  int at_line = 0;
  LineKey loose() const { return {file, line, {}, 0}; }  // without the call site
  friend bool operator==(const LineKey&, const LineKey&) = default;
  friend auto operator<=>(const LineKey&, const LineKey&) = default;
};

// Loads and stores: matches the PTX accesses of `functions` (the SASS function's PTX function
// and the functions it calls that ptxas inlined) to `sass`'s loads and stores; fills `plan`.
// SASS instructions in `taken` (the loads of atomics' CAS loops) are left alone.
void match_accesses(const ptx::Module& module, const std::vector<const ptx::Function*>& functions,
                    const sass::SassFunction& sass, const std::vector<bool>& taken, SassPlan& plan);

// Atomics: gives each PTX atom/red of `functions` the lowering its SASS shows; marks in `taken`
// (by memory_ops index) the SASS loads that belong to those lowerings.
void match_atomics(const ptx::Module& module, const std::vector<const ptx::Function*>& functions,
                   const sass::SassFunction& sass, std::vector<bool>& taken, SassPlan& plan);

// Source lines: gives each PTX memory access of `functions` the lines ncu shows the SASS
// instructions it became at (plan.source_lines; see sass_lines.cc for the pairing).
void attribute_lines(const ptx::Module& module, const std::vector<const ptx::Function*>& functions,
                     const sass::SassFunction& sass, SassPlan& plan);

// The lowering ptxas gives a PTX atomic on sm_90 when no listing says otherwise.
AtomicRole predicted_atomic(const ptx::Instruction& inst);

// Per SASS instruction: true when only the lane a warp elected runs it (the instruction is
// guarded by, or skipped unless, `lane == FLO(vote.any)`: ptxas's warp-aggregated atomics).
std::vector<bool> leader_only(const sass::SassFunction& f);

// The source position of a PTX instruction and of a SASS instruction, as LineKeys.
LineKey line_of(const ptx::Module& module, const ptx::Instruction& inst);
LineKey line_of(const sass::SassInstruction& inst);

}  // namespace warpscope::analysis::detail
