// html_access.h: one warp instruction of the HTML report drawn for the eye: its worst warp's
// bank diagram (SVG) and its lane table. Used by html_writer.cc.
//
//   bank     0    1    2  ...  31          one column per bank, one row per wavefront of a lane
//   wf 1    L0                             group (model::SharedCost::group_lanes); a cell names
//   wf 2    L1                             the lane serving that bank's n-th distinct word and
//   ...                                    the word; red cells share a bank with another word in
//   wf 32   L31                            the group (a conflict), blue ones are broadcasts.
//
//   lane  address  word  bank            (global accesses: lane  address  sector  line)
//      0        0     0     0  *         (* : a lane in the worst bank of the worst group)
#pragma once

#include <string>

#include "analysis/cost_listener.h"
#include "model/arch.h"

namespace warpscope::report {

// Text for HTML element content and attribute values: & < > " ' escaped.
std::string html_escape(const std::string& text);

// The SVG bank diagram of an instruction's worst warp; empty for global accesses and for an
// instruction that never ran.
std::string bank_diagram_svg(const model::Arch& arch, const analysis::InstructionCost& cost);

// The worst warp's lane -> address -> bank (shared) or sector (global) table.
std::string lane_table_html(const model::Arch& arch, const analysis::InstructionCost& cost);

}  // namespace warpscope::report
