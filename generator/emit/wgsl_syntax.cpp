// generator/emit: the WGSL spellings of the pass printer's statements (wgsl_syntax.hpp).
#include "wgsl_syntax.hpp"

#include <cctype>
#include <set>
#include <sstream>
#include <stdexcept>

namespace fftgen::wgsl {
namespace {

// What a function body's statements need to know: its parameters passed by pointer (spelt `(*x)`)
// and the functions whose parameters are.
struct Context {
  const InoutParameters& inout;
  std::set<std::string> pointers;
};

[[noreturn]] void unsupported(const std::string& what, const std::string& line) {
  throw std::logic_error("WGSL printer: " + what + " in '" + line + "'");
}

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

bool starts_with(const std::string& s, const std::string& p) { return s.compare(0, p.size(), p) == 0; }
bool is_ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The index of the bracket that closes the one at `open`, or npos.
size_t closing(const std::string& s, size_t open) {
  int depth = 0;
  for (size_t i = open; i < s.size(); ++i) {
    if (s[i] == '(' || s[i] == '[') ++depth;
    if (s[i] == ')' || s[i] == ']')
      if (--depth == 0) return i;
  }
  return std::string::npos;
}

// `s` split at `sep` outside brackets.
std::vector<std::string> split_top(const std::string& s, char sep) {
  std::vector<std::string> parts(1);
  int depth = 0;
  for (char c : s) {
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') --depth;
    if (c == sep && depth == 0) parts.emplace_back();
    else parts.back() += c;
  }
  return parts;
}

size_t find_top(const std::string& s, char c, size_t from = 0) {
  int depth = 0;
  for (size_t i = from; i < s.size(); ++i) {
    if (s[i] == '(' || s[i] == '[') ++depth;
    if (s[i] == ')' || s[i] == ']') --depth;
    if (s[i] == c && depth == 0) return i;
  }
  return std::string::npos;
}

// Identifiers spelt otherwise in WGSL: types and constructors, built-in variables and functions,
// and names WGSL reserves.
const std::map<std::string, std::string>& renames() {
  static const std::map<std::string, std::string> names{
      {"vec2", "vec2<f32>"},      {"vec3", "vec3<f32>"},      {"vec4", "vec4<f32>"},
      {"ivec2", "vec2<i32>"},     {"uvec2", "vec2<u32>"},     {"float", "f32"},
      {"int", "i32"},             {"uint", "u32"},            {"imageLoad", "textureLoad"},
      {"imageStore", "textureStore"}, {"inversesqrt", "inverseSqrt"},
      {"gl_LocalInvocationID", "local_id"}, {"gl_WorkGroupID", "group_id"},
      {"gl_GlobalInvocationID", "global_id"}};
  return names;
}
const std::set<std::string>& reserved() {
  static const std::set<std::string> words{"filter", "shared", "target", "mod",   "pass",   "self",  "set",
                                           "type",   "from",   "get",    "ref",   "move",   "new",   "null",
                                           "do",     "of",     "meta",   "as",    "final",  "module", "enum",
                                           "match",  "static", "union",  "where", "with",   "yield", "layout",
                                           "common", "active", "patch",  "precise", "smooth", "use", "using"};
  return words;
}
// Functions of the subset WGSL does not have (the half-float ones belong to fp16, which the wgsl
// target refuses; the others to the counters' dispatch, refused too).
const std::set<std::string>& missing() {
  static const std::set<std::string> names{"unpackHalf2x16", "packHalf2x16", "f16vec2",   "memoryBarrierBuffer",
                                           "atomicAdd",      "atomicExchange", "atomicOr", "f16vec4", "float16_t"};
  return names;
}

std::string name(const std::string& ident, const Context& ctx) {
  if (ctx.pointers.count(ident)) return "(*" + ident + ")";
  if (auto it = renames().find(ident); it != renames().end()) return it->second;
  if (reserved().count(ident)) return ident + "_";
  if (missing().count(ident)) unsupported("'" + ident + "'", ident);
  return ident;
}

std::string expression(const std::string& e, const Context& ctx);

// The arguments of a call to `function` (text between its brackets).
std::string arguments(const std::string& function, const std::string& args, const Context& ctx) {
  if (trim(args).empty()) return "";
  std::vector<std::string> parts = split_top(args, ',');
  auto it = ctx.inout.find(function);
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    std::string a = expression(parts[i], ctx);
    if (it != ctx.inout.end() && i < it->second.size() && it->second[i]) {
      // A pointer parameter of the caller is passed on as it is; a variable by its address.
      a = starts_with(a, "(*") ? a.substr(2, a.size() - 3) : "&" + a;
    }
    out += (i ? ", " : "") + a;
  }
  return out;
}

// An expression of the subset in WGSL: `c ? a : b` becomes select(b, a, c) (both sides are
// evaluated: the printer's ternaries choose between values, never guard an access), identifiers
// are renamed, brackets translated inside.
std::string expression(const std::string& text, const Context& ctx) {
  const std::string e = trim(text);
  if (e.find(';') != std::string::npos || e.find('{') != std::string::npos) unsupported("a statement", e);
  if (size_t q = find_top(e, '?'); q != std::string::npos) {
    int depth = 0, nested = 0;
    size_t colon = std::string::npos;
    for (size_t i = q + 1; i < e.size() && colon == std::string::npos; ++i) {
      if (e[i] == '(' || e[i] == '[') ++depth;
      if (e[i] == ')' || e[i] == ']') --depth;
      if (depth != 0) continue;
      if (e[i] == '?') ++nested;
      if (e[i] == ':') {
        if (nested == 0) colon = i;
        else --nested;
      }
    }
    if (colon == std::string::npos) unsupported("a '?' without ':'", e);
    return "select(" + expression(e.substr(colon + 1), ctx) + ", " + expression(e.substr(q + 1, colon - q - 1), ctx) +
           ", " + expression(e.substr(0, q), ctx) + ")";
  }
  std::string out;
  std::string last_ident;  // the identifier just before a '(' (a call), as written in the subset
  for (size_t i = 0; i < e.size();) {
    const char c = e[i];
    if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && i + 1 < e.size() && std::isdigit(e[i + 1]))) {
      size_t j = i;
      while (j < e.size() && (is_ident_char(e[j]) || e[j] == '.' ||
                              ((e[j] == '-' || e[j] == '+') && j > i && (e[j - 1] == 'e' || e[j - 1] == 'E') &&
                               !(e[i] == '0' && i + 1 < e.size() && (e[i + 1] == 'x' || e[i + 1] == 'X')))))
        ++j;
      out += e.substr(i, j - i);
      last_ident.clear();
      i = j;
    } else if (is_ident_start(c)) {
      size_t j = i;
      while (j < e.size() && is_ident_char(e[j])) ++j;
      const std::string ident = e.substr(i, j - i);
      // A member (`.x`, `.data`) is not renamed.
      const bool member = i > 0 && e[i - 1] == '.';
      out += member ? ident : name(ident, ctx);
      last_ident = member ? "" : ident;
      i = j;
    } else if (c == '(' || c == '[') {
      const size_t close = closing(e, i);
      if (close == std::string::npos) unsupported("an unbalanced bracket", e);
      const std::string inside = e.substr(i + 1, close - i - 1);
      if (c == '(' && !last_ident.empty()) out += "(" + arguments(last_ident, inside, ctx) + ")";
      else out += std::string(1, c) + expression(inside, ctx) + e[close];
      last_ident.clear();
      i = close + 1;
    } else {
      if (c != ' ') last_ident.clear();
      out += c;
      ++i;
    }
  }
  return out;
}

const std::set<std::string>& types() {
  static const std::set<std::string> t{"float", "uint", "int", "bool", "vec2", "vec3", "vec4", "ivec2", "uvec2"};
  return t;
}

// One statement (a line without its indentation and comment).
std::string statement(const std::string& line, const Context& ctx) {
  const std::string s = trim(line);
  if (s.empty() || s == "{" || s == "}") return s;
  if (s == "barrier();") return "workgroupBarrier();";
  if (s[0] == '}') return "} " + statement(s.substr(1), ctx);
  if (s == "else {" || s == "else") return s;
  if (starts_with(s, "else ")) {
    const std::string rest = trim(s.substr(5));
    return starts_with(rest, "if") ? "else " + statement(rest, ctx) : "else { " + statement(rest, ctx) + " }";
  }
  if (starts_with(s, "if (") || starts_with(s, "if(")) {
    const size_t open = s.find('('), close = closing(s, open);
    if (close == std::string::npos) unsupported("an unbalanced condition", s);
    const std::string cond = expression(s.substr(open + 1, close - open - 1), ctx);
    const std::string rest = trim(s.substr(close + 1));
    if (rest == "{") return "if (" + cond + ") {";
    return "if (" + cond + ") { " + statement(rest, ctx) + " }";
  }
  if (starts_with(s, "for") || starts_with(s, "while") || starts_with(s, "#") || starts_with(s, "switch"))
    unsupported("a loop or directive", s);
  if (s.back() != ';') unsupported("a statement without ';'", s);
  const std::string body = s.substr(0, s.size() - 1);
  if (body == "return") return "return;";
  if (starts_with(body, "return ")) return "return " + expression(body.substr(7), ctx) + ";";
  // A declaration: [const] T a = e, b, c[N];
  {
    std::string rest = body;
    const bool constant = starts_with(rest, "const ");
    if (constant) rest = trim(rest.substr(6));
    const size_t space = rest.find(' ');
    if (space != std::string::npos && types().count(rest.substr(0, space))) {
      const std::string t = type(rest.substr(0, space));
      std::string out;
      for (const std::string& d : split_top(rest.substr(space + 1), ',')) {
        const size_t eq = find_top(d, '=');
        std::string var = trim(eq == std::string::npos ? d : d.substr(0, eq));
        std::string decl_type = t;
        if (const size_t br = var.find('['); br != std::string::npos) {
          decl_type = "array<" + t + ", " + trim(var.substr(br + 1, var.size() - br - 2)) + ">";
          var = trim(var.substr(0, br));
        }
        out += (out.empty() ? "" : " ") + std::string(constant ? "const " : "var ") + name(var, ctx) + ": " +
               decl_type + (eq == std::string::npos ? "" : " = " + expression(d.substr(eq + 1), ctx)) + ";";
      }
      return out;
    }
  }
  // An assignment (`=`, `+=`, ...) or a call.
  for (size_t i = find_top(body, '='); i != std::string::npos; i = find_top(body, '=', i + 2)) {
    const char before = i > 0 ? body[i - 1] : ' ', after = i + 1 < body.size() ? body[i + 1] : ' ';
    if (after == '=' || before == '=' || before == '!' || before == '<' || before == '>') continue;
    const bool compound = std::string("+-*/%&|^").find(before) != std::string::npos;
    const std::string lhs = body.substr(0, compound ? i - 1 : i);
    return expression(lhs, ctx) + " " + (compound ? std::string(1, before) : "") + "= " +
           expression(body.substr(i + 1), ctx) + ";";
  }
  return expression(body, ctx) + ";";
}

// A line: indentation, statement, and a trailing comment kept as it is.
std::string line_of(const std::string& line, const Context& ctx) {
  const size_t indent = line.find_first_not_of(' ');
  if (indent == std::string::npos) return "";
  const size_t comment = line.find("//");
  const std::string code = line.substr(indent, comment == std::string::npos ? std::string::npos : comment - indent);
  if (trim(code) == "memoryBarrierShared();") return "";  // workgroupBarrier() orders workgroup memory too
  // Several statements on one line (`vec2 a0 = v0; v0 = w0; w0 = a0;`), each spelt on its own.
  std::string spelt;
  const std::vector<std::string> parts = split_top(code, ';');
  if (parts.size() > 2 && !starts_with(trim(code), "if") && !starts_with(trim(code), "for")) {
    for (size_t i = 0; i + 1 < parts.size(); ++i) spelt += (i ? " " : "") + statement(parts[i] + ";", ctx);
    if (!trim(parts.back()).empty()) unsupported("a statement without ';'", code);
  } else {
    spelt = statement(code, ctx);
  }
  std::string out = std::string(indent, ' ') + spelt;
  if (comment != std::string::npos) out += (trim(code).empty() ? "" : "  ") + line.substr(comment);
  return out;
}

struct Definition {
  std::string result, name, parameters, rest;  ///< rest: what follows the '{' on the first line
};

// `T name(parameters) {...` at the start of a line, or nothing.
bool definition(const std::string& line, Definition& d) {
  if (line.empty() || line[0] == ' ' || line[0] == '/') return false;
  const size_t space = line.find(' '), open = line.find('(');
  if (space == std::string::npos || open == std::string::npos || open < space) return false;
  d.result = line.substr(0, space);
  if (d.result != "void" && !types().count(d.result)) return false;
  d.name = trim(line.substr(space + 1, open - space - 1));
  const size_t close = closing(line, open), brace = line.find('{', close);
  if (close == std::string::npos || brace == std::string::npos) return false;
  d.parameters = line.substr(open + 1, close - open - 1);
  d.rest = trim(line.substr(brace + 1));
  return true;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

}  // namespace

std::string type(const std::string& glsl_type) {
  if (glsl_type == "bool") return "bool";
  auto it = renames().find(glsl_type);
  if (it == renames().end() || !types().count(glsl_type)) throw std::logic_error("WGSL printer: type '" + glsl_type + "'");
  return it->second;
}

InoutParameters inout_parameters(const std::string& text) {
  InoutParameters out;
  for (const std::string& line : lines_of(text)) {
    Definition d;
    if (!definition(line, d)) continue;
    std::vector<bool> flags;
    for (const std::string& p : split_top(d.parameters, ','))
      if (!trim(p).empty()) flags.push_back(starts_with(trim(p), "inout "));
    out[d.name] = flags;
  }
  return out;
}

std::string functions(const std::string& text, const InoutParameters& inout) {
  const std::vector<std::string> lines = lines_of(text);
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i) {
    Definition d;
    if (!definition(lines[i], d)) {
      const std::string t = trim(lines[i]);
      if (!t.empty() && !starts_with(t, "//")) unsupported("a declaration outside a function", lines[i]);
      out += lines[i] + "\n";
      continue;
    }
    // The body: the rest of the first line, up to the '}' that closes the function.
    std::vector<std::string> body;
    bool one_line = false;
    if (!d.rest.empty()) {
      if (d.rest.back() != '}') unsupported("a function's first line", lines[i]);
      body.push_back("  " + trim(d.rest.substr(0, d.rest.size() - 1)));
      one_line = true;
    } else {
      for (++i; i < lines.size() && lines[i] != "}"; ++i) body.push_back(lines[i]);
      if (i == lines.size()) unsupported("a function without its closing '}'", d.name);
    }
    Context ctx{inout, {}};
    std::string params, copies;
    for (const std::string& raw : split_top(d.parameters, ',')) {
      std::string p = trim(raw);
      if (p.empty()) continue;
      const bool by_pointer = starts_with(p, "inout ");
      if (by_pointer) p = trim(p.substr(6));
      if (starts_with(p, "in ")) p = trim(p.substr(3));
      const size_t space = p.find(' ');
      const std::string t = type(p.substr(0, space)), n = trim(p.substr(space + 1));
      if (by_pointer) {
        ctx.pointers.insert(n);
        params += (params.empty() ? "" : ", ") + n + ": ptr<function, " + t + ">";
        continue;
      }
      // WGSL parameters are constants: one the body assigns is copied into a variable.
      bool assigned = false;
      for (const std::string& b : body) {
        const std::string s = trim(b);
        for (const std::string& lhs : {n + " =", n + ".x =", n + ".y =", n + " +=", n + " -="})
          if (starts_with(s, lhs)) assigned = true;
      }
      params += (params.empty() ? "" : ", ") + (assigned ? n + "_in" : name(n, ctx)) + ": " + t;
      if (assigned) copies += "  var " + n + " = " + n + "_in;\n";
    }
    const std::string result = d.result == "void" ? "" : " -> " + type(d.result);
    out += "fn " + d.name + "(" + params + ")" + result + " {";
    if (one_line && copies.empty()) {
      out += " " + trim(line_of(body.front(), ctx)) + " }\n";
      continue;
    }
    out += "\n" + copies;
    for (const std::string& b : body) out += line_of(b, ctx) + "\n";
    out += "}\n";
  }
  return out;
}

std::string statements(const std::string& text, const InoutParameters& inout) {
  const Context ctx{inout, {}};
  std::string out;
  for (const std::string& line : lines_of(text)) {
    const std::string l = line_of(line, ctx);
    if (!l.empty() || trim(line).empty()) out += l + "\n";
  }
  return out;
}

}  // namespace fftgen::wgsl
