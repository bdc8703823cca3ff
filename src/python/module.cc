// module.cc: warpscope._core, the thin binding under the Python package (python/warpscope):
// a driver::LaunchRequest in, the report out through the writers the CLI uses (the JSON
// writer's text, parsed by the package, is what `.metrics` and `.lines` are made of).
//
//   a = _core.analyze(file="k.ptx", text=None, kernel="", grid="16,16", block="32,8",
//                     args=["buf:1048576", "num:512"], ...)     # the GIL is released inside
//   a.json()   -> `warpscope kernel --json`       a.text()  -> `warpscope kernel`
//   a.html()   -> `--html`'s page                 a.fix(5, 0) -> FixResult (json, text, html)
//
// Errors are raised as warpscope.errors.WarpscopeError(message, file, line, column, rendered).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "analysis/fail_condition.h"
#include "driver/analyze.h"
#include "driver/launch.h"
#include "driver/toolchain.h"
#include "report/fix_report.h"
#include "report/html_writer.h"
#include "report/kernel_json.h"
#include "report/kernel_text.h"

namespace py = pybind11;

namespace warpscope::python {
namespace {

// Carries an Error out of a call; translated once, below, into the package's exception.
struct Failure {
  Error error;
};

template <class T>
T take(Expected<T>&& value) {
  if (!value) throw Failure{value.error()};
  return std::move(*value);
}

// One analysed launch: the prepared launch stays alive (the report's diagnostics point
// into its module, and fix() runs it again).
struct Analysis {
  std::unique_ptr<driver::PreparedLaunch> launch;
  driver::KernelAnalysis result;

  std::string json() const { return report::kernel_json(result.report).dump(); }
  std::string text() const { return report::kernel_text(result.report); }
  std::string html() const { return report::kernel_html(result.report, *launch->arch); }

  // Per diagnostic, in the report's order: (file, line, column, ptx_line) of its
  // instruction's .loc; ("", 0, 0, ptx_line) when the PTX has none.
  std::vector<std::tuple<std::string, int, int, int>> diagnostic_positions() const {
    std::vector<std::tuple<std::string, int, int, int>> out;
    for (const emu::Diagnostic& d : result.report.diagnostics) {
      if (!d.instruction) {
        out.emplace_back("", 0, 0, 0);
        continue;
      }
      const ptx::SourceLoc& loc = d.instruction->debug.loc;
      auto file = launch->module.files.find(loc.file);
      out.emplace_back(loc.known() && file != launch->module.files.end() ? file->second : std::string(),
                       loc.known() ? loc.line : 0, loc.known() ? loc.column : 0, d.instruction->ptx_line);
    }
    return out;
  }
};

// `--fail-on CONDITION` against this report: why it holds, or None.
std::optional<std::string> check(const Analysis& a, const std::string& condition) {
  auto c = take(analysis::parse_fail_condition(condition));
  return analysis::check_fail_condition(c, a.result.report);
}

struct FixResult {
  std::string json, text, html;
  bool failed = false;
};

std::unique_ptr<Analysis> analyze(const std::string& file, std::optional<std::string> text, const std::string& kernel,
                                  const std::string& grid, const std::string& block, std::uint32_t dyn_smem,
                                  const std::vector<std::string>& args, const std::string& blocks,
                                  const std::string& arch, bool no_sass, const std::string& sass_listing,
                                  std::optional<std::string> sass_text, int jobs) {
  driver::LaunchRequest r;
  r.file = file;
  r.text = std::move(text);
  r.kernel = kernel;
  r.grid = grid;
  r.block = block;
  r.dyn_smem = dyn_smem;
  r.args = args;
  r.blocks = blocks;
  r.arch = arch;
  r.no_sass = no_sass;
  r.sass_listing = sass_listing;
  r.sass_text = std::move(sass_text);
  r.jobs = jobs;
  auto a = std::make_unique<Analysis>();
  {
    py::gil_scoped_release released;  // nvcc/ptxas/nvdisasm may run, then the emulation
    a->launch = take(driver::prepare_launch(r));
    a->result = take(driver::analyze_kernel(*a->launch));
  }
  return a;
}

FixResult fix(const Analysis& a, int keep, int registers) {
  FixResult out;
  py::gil_scoped_release released;
  driver::FixAnalysis f = take(driver::fix_kernel(
      *a.launch, driver::FixRequest{static_cast<std::size_t>(std::max(1, keep)), registers}));
  out.json = report::fix_json(f.report).dump();
  out.text = report::fix_text(f.report);
  out.html = report::fix_html(f.report, *a.launch->arch);
  out.failed = f.failed;
  return out;
}

std::string disassemble_cubin(const py::bytes& cubin, const std::string& nvdisasm) {
  std::string bytes = cubin;
  py::gil_scoped_release released;
  return take(driver::disassemble_cubin(bytes, nvdisasm));
}

}  // namespace
}  // namespace warpscope::python

PYBIND11_MODULE(_core, m) {
  using namespace warpscope::python;
  m.doc() = "warpscope's C++ library (src/driver) for the Python package; use `import warpscope`.";

  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Failure& f) {
      const warpscope::Error& e = f.error;
      py::object type;
      try {
        type = py::module_::import("warpscope.errors").attr("WarpscopeError");
      } catch (py::error_already_set&) {  // _core imported on its own
        PyErr_SetString(PyExc_RuntimeError, e.render().c_str());
        return;
      }
      py::object value = type(e.message, e.where.file, e.where.line, e.where.column, e.render());
      PyErr_SetObject(type.ptr(), value.ptr());
    }
  });

  py::class_<Analysis>(m, "Analysis")
      .def("json", &Analysis::json, "the report as `warpscope kernel --json` prints it")
      .def("text", &Analysis::text, "the report as `warpscope kernel` prints it")
      .def("html", &Analysis::html, "the page `warpscope kernel --html` writes")
      .def("diagnostic_positions", &Analysis::diagnostic_positions)
      .def_property_readonly("failed", [](const Analysis& a) { return a.result.failed; })
      .def("check", &check, py::arg("condition"), "`--fail-on CONDITION`: why it holds, or None")
      .def("fix", &fix, py::arg("keep") = 5, py::arg("registers") = 0,
           "`warpscope fix`: search layouts and re-run the kernel with the chosen ones");

  py::class_<FixResult>(m, "FixResult")
      .def_readonly("json", &FixResult::json)
      .def_readonly("text", &FixResult::text)
      .def_readonly("html", &FixResult::html)
      .def_readonly("failed", &FixResult::failed);

  m.def("analyze", &analyze, py::kw_only(), py::arg("file"), py::arg("text") = py::none(), py::arg("kernel") = "",
        py::arg("grid") = "1", py::arg("block") = "32", py::arg("dyn_smem") = 0,
        py::arg("args") = std::vector<std::string>{}, py::arg("blocks") = "", py::arg("arch") = "sm_90",
        py::arg("no_sass") = false, py::arg("sass_listing") = "", py::arg("sass_text") = py::none(),
        py::arg("jobs") = 0, "prepare, emulate and price one launch (driver::LaunchRequest's fields)");
  m.def("disassemble_cubin", &disassemble_cubin, py::arg("cubin"), py::arg("nvdisasm") = "",
        "`nvdisasm -c -gi` of a cubin's bytes (nvdisasm: a path, or empty to look it up)");
}
