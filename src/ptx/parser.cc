// parser.cc: module-level PTX: directives, declarations, functions and their bodies.
#include "ptx/parser.h"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "ptx/parser_impl.h"

namespace warpscope::ptx {
namespace detail {

Parser::Parser(std::string_view source, std::string path) : source_(source), tokens_(lex(source)) {
  module_.path = std::move(path);
}

const Token& Parser::peek(int k) const {
  std::size_t i = pos_ + static_cast<std::size_t>(k);
  return i < tokens_.size() ? tokens_[i] : tokens_.back();
}

const Token& Parser::next() {
  const Token& t = peek();
  if (pos_ + 1 < tokens_.size()) ++pos_;
  return t;
}

bool Parser::accept(char punct) {
  if (!peek().is(punct)) return false;
  next();
  return true;
}

void Parser::expect(char punct, std::string_view context) {
  if (accept(punct)) return;
  const Token& t = peek();
  std::string got = t.kind == TokenKind::End ? "end of file" : "'" + std::string(t.text) + "'";
  fail(t, "expected '" + std::string(1, punct) + "' " + std::string(context) + ", got " + got);
}

std::string_view Parser::expect_ident(std::string_view what) {
  const Token& t = peek();
  if (t.kind != TokenKind::Ident) fail(t, "expected " + std::string(what));
  next();
  return t.text;
}

std::int64_t Parser::expect_integer(std::string_view what) {
  bool negative = accept('-');
  const Token& t = peek();
  if (t.kind != TokenKind::Integer) fail(t, "expected " + std::string(what));
  next();
  auto v = static_cast<std::int64_t>(t.bits);
  return negative ? -v : v;
}

void Parser::fail(const Token& at, const std::string& message) const { throw ParseFailure{error_at(at, message)}; }

void Parser::unknown(const Token& at, const std::string& message) const {
  throw UnknownConstruct{error_at(at, message)};
}

Error Parser::error_at(const Token& at, const std::string& message) const {
  Error e;
  e.message = message;
  e.where = SourcePosition{module_.path, at.line, at.column};
  // The offending line's text.
  std::size_t start = 0;
  for (int line = 1; line < at.line && start < source_.size(); ++line) {
    std::size_t nl = source_.find('\n', start);
    if (nl == std::string_view::npos) {
      start = source_.size();
      break;
    }
    start = nl + 1;
  }
  std::size_t end = source_.find('\n', start);
  e.source_line = std::string(source_.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
  return e;
}

void Parser::skip_line(int line) {
  while (peek().kind != TokenKind::End && peek().line == line) next();
}

void Parser::skip_to_semicolon() {
  while (peek().kind != TokenKind::End && !peek().is(';')) next();
  accept(';');
}

void Parser::skip_statement() {
  // Vector operands hold braces ({%r1, %r2}); a ';' inside them, or a '}' that closes
  // nothing, means the statement lost its own ';'.
  const Token& first = peek();
  int depth = 0;
  for (;;) {
    const Token& t = peek();
    if (t.kind == TokenKind::End) fail(first, "expected ';' at the end of the statement");
    if ((t.is(';') && depth > 0) || (t.is('}') && depth == 0)) fail(t, "expected ';' at the end of the statement");
    next();
    if (t.is(';')) return;
    if (t.is('{')) ++depth;
    if (t.is('}')) --depth;
  }
}

void Parser::skip_braced_block() {
  const Token& open = peek();
  expect('{', "to open the section");
  int depth = 1;
  while (depth > 0) {
    const Token& t = next();
    if (t.kind == TokenKind::End) fail(open, "unterminated block");
    if (t.is('{')) ++depth;
    if (t.is('}')) --depth;
  }
}

Module Parser::run() {
  while (peek().kind != TokenKind::End) top_level();
  symbol_scopes_.clear();
  for (const PendingAddress& p : pending_addresses_) {
    Variable& v = module_.variables[static_cast<std::size_t>(p.variable)];
    int id = symbol_index(p.symbol.text);
    if (id >= 0) {
      v.init_addresses.emplace_back(p.offset, id);
      continue;
    }
    auto function = function_index_.find(std::string(p.symbol.text));
    if (function == function_index_.end())
      fail(p.symbol, "unknown symbol '" + std::string(p.symbol.text) + "' in an initializer");
    v.init_functions.emplace_back(p.offset, function->second);
  }
  return std::move(module_);
}

void Parser::line_directive(const Token& dot) {
  int line = dot.line;
  if (dot.text == ".version") {
    const Token& v = next();
    module_.version = std::string(v.text);
  } else if (dot.text == ".target") {
    module_.target = std::string(expect_ident("a target name such as sm_90"));
  } else if (dot.text == ".address_size") {
    module_.address_size = static_cast<int>(expect_integer("an address size"));
  } else if (dot.text == ".file") {
    int index = static_cast<int>(expect_integer("a file index"));
    const Token& name = peek();
    if (name.kind != TokenKind::String) fail(name, "expected a file name string");
    next();
    module_.files[index] = std::string(name.text);
  }
  skip_line(line);
}

void Parser::top_level() {
  const Token& t = peek();
  if (t.is(';')) {
    next();
    return;
  }
  if (t.kind != TokenKind::Dot) fail(t, "expected a directive, got '" + std::string(t.text) + "'");
  next();
  std::string_view d = t.text;
  if (d == ".version" || d == ".target" || d == ".address_size" || d == ".file") {
    line_directive(t);
    return;
  }
  if (d == ".section") {
    // ".section .debug_str" then a braced block, possibly on the same line: "{ }".
    if (peek().kind == TokenKind::Dot || peek().kind == TokenKind::Ident) next();
    while (peek().kind != TokenKind::End && !peek().is('{') && peek().line == t.line) next();
    if (peek().is('{')) skip_braced_block();
    return;
  }
  if (d == ".pragma") {
    skip_to_semicolon();
    return;
  }
  if (d == ".alias") {
    skip_to_semicolon();
    return;
  }
  bool is_extern = false;
  std::string_view kw = d;
  while (kw == ".visible" || kw == ".extern" || kw == ".weak" || kw == ".common") {
    if (kw == ".extern") is_extern = true;
    const Token& k = next();
    if (k.kind != TokenKind::Dot) fail(k, "expected a declaration after '" + std::string(kw) + "'");
    kw = k.text;
  }
  if (kw == ".entry" || kw == ".func") {
    function(kw == ".entry", t.line);
    return;
  }
  Space space = kw == ".shared" ? Space::Shared
                : kw == ".global" ? Space::Global
                : kw == ".const" ? Space::Const
                : kw == ".local" ? Space::Local
                : Space::None;
  if (space == Space::None) fail(t, "unknown directive '" + std::string(kw) + "'");
  variable_decl(space, is_extern, -1, false);
}

void Parser::param_list(Function& f, int function_index, bool returns) {
  expect('(', returns ? "to open the return values" : "to open the parameters");
  if (accept(')')) return;
  for (;;) {
    const Token& kw = peek();
    if (!kw.is_dot(".param") && !kw.is_dot(".reg")) fail(kw, "expected '.param'");
    next();
    auto ids = variable_decl(Space::Param, false, function_index, true);
    for (int id : ids) {
      Variable& v = module_.variables[static_cast<std::size_t>(id)];
      v.is_return = returns;
      auto& list = returns ? f.returns : f.params;
      v.param_index = static_cast<int>(list.size());
      list.push_back(id);
    }
    if (accept(')')) return;
    expect(',', "between parameters");
  }
}

void Parser::function(bool is_entry, int decl_line) {
  Function f;
  f.is_entry = is_entry;
  f.ptx_line = decl_line;
  int index = static_cast<int>(module_.functions.size());
  symbol_scopes_.assign(1, {});
  register_scopes_.assign(1, {});
  bool has_returns = !is_entry && peek().is('(');
  Function scratch_returns;
  if (has_returns) {
    // The return list comes before the name; parse it into the function after naming.
    module_.functions.push_back(Function{});
    param_list(module_.functions.back(), index, true);
    scratch_returns = std::move(module_.functions.back());
    module_.functions.pop_back();
  }
  const Token& name = peek();
  f.name = std::string(expect_ident("a function name"));
  f.returns = std::move(scratch_returns.returns);
  auto existing = function_index_.find(f.name);
  if (existing != function_index_.end()) {
    // A definition after a prototype: replace the declaration in place.
    index = existing->second;
    for (int id : f.returns) module_.variables[static_cast<std::size_t>(id)].function = index;
  } else {
    function_index_[f.name] = index;
    module_.functions.push_back(Function{});
  }
  module_.functions[static_cast<std::size_t>(index)] = std::move(f);
  Function& fn = module_.functions[static_cast<std::size_t>(index)];
  (void)name;
  if (peek().is('(')) param_list(fn, index, false);
  // Performance directives and attributes.
  while (peek().kind == TokenKind::Dot) {
    const Token& d = next();
    if (d.text == ".maxntid" || d.text == ".reqntid" || d.text == ".reqnctapercluster") {
      auto& dims = d.text == ".maxntid" ? fn.maxntid : d.text == ".reqntid" ? fn.reqntid : fn.reqnctapercluster;
      dims = {1, 1, 1};
      for (int i = 0; i < 3; ++i) {
        dims[static_cast<std::size_t>(i)] = static_cast<int>(expect_integer("a thread count"));
        if (!accept(',')) break;
      }
    } else if (d.text == ".pragma") {
      skip_to_semicolon();
    } else if (d.text == ".explicitcluster") {
      fn.explicit_cluster = true;
    } else if (d.text == ".noreturn") {
    } else if (d.text == ".attribute") {
      expect('(', "after .attribute");
      while (!accept(')')) next();
    } else {
      // .minnctapersm N, .maxnreg N, .maxclusterrank N ...
      if (peek().kind == TokenKind::Integer) {
        expect_integer("a number");
        while (accept(',')) expect_integer("a number");
      }
    }
  }
  if (accept(';')) {
    fn.is_declaration = true;
    return;
  }
  fn.is_declaration = false;
  function_body(fn, index);
}

void Parser::function_body(Function& f, int function_index) {
  expect('{', "to open the function body");
  labels_.clear();
  block_parent_.assign(1, -1);
  block_ = 0;
  label_refs_.clear();
  func_refs_.clear();
  loc_ = DebugLoc{};
  outer_of_.clear();
  int depth = 1;
  while (depth > 0) {
    const Token& t = peek();
    if (t.kind == TokenKind::End) fail(t, "unterminated function body of '" + f.name + "'");
    if (t.is('{')) {
      next();
      ++depth;
      symbol_scopes_.emplace_back();
      register_scopes_.emplace_back();
      block_parent_.push_back(block_);
      block_ = static_cast<int>(block_parent_.size()) - 1;
      continue;
    }
    if (t.is('}')) {
      next();
      --depth;
      if (depth > 0) {
        symbol_scopes_.pop_back();
        register_scopes_.pop_back();
        block_ = block_parent_[static_cast<std::size_t>(block_)];
      }
      continue;
    }
    // The function reference may move while instructions are appended elsewhere; re-fetch.
    statement(module_.functions[static_cast<std::size_t>(function_index)], function_index);
  }
  finish_function(module_.functions[static_cast<std::size_t>(function_index)]);
}

void Parser::loc_directive() {
  const Token& dot = next();
  int line = dot.line;
  SourceLoc loc;
  loc.file = static_cast<int>(expect_integer("a file index"));
  loc.line = static_cast<int>(expect_integer("a line number"));
  if (peek().line == line && peek().kind == TokenKind::Integer) loc.column = static_cast<int>(expect_integer("a column"));
  SourceLoc inner = loc;
  bool inlined = false;
  while (peek().line == line && accept(',')) {
    const Token& key = next();
    if (key.text == "inlined_at") {
      inner.file = static_cast<int>(expect_integer("a file index"));
      inner.line = static_cast<int>(expect_integer("a line number"));
      inner.column = peek().line == line && peek().kind == TokenKind::Integer ? static_cast<int>(expect_integer("a column")) : 0;
      inlined = true;
    } else {
      // function_name $L__info_string0, is_stmt 0, ...: values we do not need.
      while (peek().line == line && !peek().is(',') && peek().kind != TokenKind::End) next();
    }
  }
  skip_line(line);
  DebugLoc d;
  d.loc = loc;
  d.inner = inlined ? inner : loc;
  d.outer = d.inner;
  if (inlined) {
    auto it = outer_of_.find({inner.file, inner.line, inner.column});
    if (it != outer_of_.end()) d.outer = it->second;
  }
  outer_of_[{loc.file, loc.line, loc.column}] = d.outer;
  loc_ = d;
}

void Parser::statement(Function& f, int function_index) {
  const Token& t = peek();
  if (t.is(';')) {
    next();
    return;
  }
  if (t.kind == TokenKind::Ident && peek(1).is(':')) {
    // A label, or "prototype_0 : .callprototype ..." (indirect-call prototypes), or a
    // jump or call table for brx.idx / an indirect call ("$L_brx_0: .branchtargets ...").
    next();
    next();
    if (peek().is_dot(".callprototype") || peek().is_dot(".branchtargets") || peek().is_dot(".calltargets")) {
      skip_to_semicolon();
      return;
    }
    labels_[std::string(t.text)].emplace_back(block_, static_cast<int>(f.body.size()));
    return;
  }
  if (t.kind == TokenKind::Dot) {
    std::string_view d = t.text;
    if (d == ".loc") {
      loc_directive();
      return;
    }
    if (d == ".pragma") {
      next();
      skip_to_semicolon();
      return;
    }
    if (d == ".file") {
      next();
      line_directive(t);
      return;
    }
    Space space = d == ".reg" ? Space::Reg
                  : d == ".local" ? Space::Local
                  : d == ".shared" ? Space::Shared
                  : d == ".param" ? Space::Param
                  : d == ".const" ? Space::Const
                  : d == ".global" ? Space::Global
                  : Space::None;
    if (space != Space::None) {
      const std::size_t start = pos_;
      next();
      // Function-scope .shared/.global/.const are static: module lifetime, function scope.
      try {
        variable_decl(space, false, function_index, false);
      } catch (UnknownConstruct&) {
        // A type the parser does not know (".reg .b1024 %x;"): declare nothing; an
        // instruction that uses the names becomes unsupported ("unknown register").
        pos_ = start;
        skip_statement();
      }
      return;
    }
    unsupported_statement(f, pos_, "unknown directive '" + std::string(d) + "' in a function body");
    return;
  }
  instruction(f, function_index);
}

}  // namespace detail

Expected<Module> parse(std::string_view source, std::string path) {
  try {
    detail::Parser parser(source, std::move(path));
    return parser.run();
  } catch (detail::ParseFailure& failure) {
    return std::move(failure.error);
  } catch (detail::UnknownConstruct& unknown) {
    return std::move(unknown.error);
  }
}

namespace {

std::optional<std::string> read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

}  // namespace

SourceReader source_reader(const std::string& directory) {
  const std::filesystem::path dir(directory);
  return [dir](const std::string& path) -> std::optional<std::string> {
    for (const std::filesystem::path& candidate :
         {std::filesystem::path(path), dir / path, dir / std::filesystem::path(path).filename()})
      if (auto text = read_text(candidate.string())) return text;
    return std::nullopt;
  };
}

Expected<Module> parse_file(const std::string& path) {
  auto text = read_text(path);
  if (!text) return make_error("cannot read '" + path + "'");
  auto module = parse(*text, path);
  if (module) name_parameters_from_sources(*module, source_reader(std::filesystem::path(path).parent_path().string()));
  return module;
}

}  // namespace warpscope::ptx
