// Codelet DAG -> GLSL statements. The maths is decided in generator/codelet; this file only
// prints it.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <string_view>
#include <stdexcept>
#include <string>
#include <vector>

#include "fftgen/emit_codelet.hpp"

namespace fftgen {

std::string glsl_float_literal(double value) {
  // Nine significant digits round-trip any float (IEEE 754 binary32: FLT_DECIMAL_DIG == 9).
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(static_cast<float>(value)));
  std::string s = buf;
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";  // GLSL needs a float literal
  return s;
}

std::string glsl_double_literal(double value) {
  // Seventeen significant digits round-trip any double (DBL_DECIMAL_DIG == 17).
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", value);
  std::string s = buf;
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
  return s + "lf";
}

std::string glsl_in_double(const std::string& text) {
  auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (size_t i = 0; i < text.size();) {
    if (text.compare(i, 2, "//") == 0) {  // comments (the generated header's names) stay as they are
      const size_t end = std::min(text.find('\n', i), text.size());
      out.append(text, i, end - i);
      i = end;
      continue;
    }
    if (!word_char(text[i])) {
      out += text[i++];
      continue;
    }
    size_t end = i;
    while (end < text.size() && word_char(text[end])) ++end;
    const std::string_view word(text.data() + i, end - i);
    out += word == "float" ? "double" : word == "vec2" ? "dvec2" : std::string(word);
    i = end;
  }
  return out;
}

namespace {
std::string emit_codelet(const codelet::Dag& dag, const std::string& function_name,
                         std::string (*literal)(double)) {
  using codelet::Op;
  const size_t n = dag.nodes.size();
  std::vector<char> live(n, 0);
  for (int o : dag.outputs) live[o] = 1;
  for (size_t i = n; i-- > 0;) {
    if (!live[i]) continue;
    if (dag.nodes[i].a >= 0) live[dag.nodes[i].a] = 1;
    if (dag.nodes[i].b >= 0) live[dag.nodes[i].b] = 1;
  }

  // Name of each node's value as an operand: an input component, a literal or a temporary.
  std::vector<std::string> name(n);
  std::string body;
  int temps = 0;
  for (size_t i = 0; i < n; ++i) {
    if (!live[i]) continue;
    const codelet::Node& nd = dag.nodes[i];
    std::string expr;
    switch (nd.op) {
      case Op::input:
        name[i] = "x" + std::to_string(nd.index / 2) + (nd.index % 2 == 0 ? ".x" : ".y");
        continue;
      case Op::constant: {
        std::string lit = literal(nd.value);
        name[i] = lit[0] == '-' ? "(" + lit + ")" : lit;
        continue;
      }
      case Op::add: expr = name[nd.a] + " + " + name[nd.b]; break;
      case Op::sub: expr = name[nd.a] + " - " + name[nd.b]; break;
      case Op::mul: expr = literal(nd.value) + " * " + name[nd.a]; break;
      case Op::neg: expr = "-" + name[nd.a]; break;
    }
    name[i] = "t" + std::to_string(temps++);
    body += "  float " + name[i] + " = " + expr + ";\n";
  }

  std::string text = "void " + function_name + "(";
  for (uint32_t r = 0; r < dag.radix; ++r) {
    if (r) text += ", ";
    text += "inout vec2 x" + std::to_string(r);
  }
  text += ") {\n" + body;
  for (uint32_t k = 0; k < dag.radix; ++k)
    text += "  x" + std::to_string(k) + " = vec2(" + name[dag.outputs[2 * k]] + ", " +
            name[dag.outputs[2 * k + 1]] + ");\n";
  text += "}\n";
  return text;
}
}  // namespace

std::string emit_codelet_glsl(const codelet::Dag& dag, const std::string& function_name) {
  return emit_codelet(dag, function_name, glsl_float_literal);
}

std::string emit_codelet_glsl_double(const codelet::Dag& dag, const std::string& function_name) {
  return glsl_in_double(emit_codelet(dag, function_name, glsl_double_literal));
}

}  // namespace fftgen
