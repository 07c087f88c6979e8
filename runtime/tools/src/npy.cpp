#include "fftgen/vktools/npy.hpp"

#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>

#include <unistd.h>

namespace fftgen::vk {

namespace {

// The header of a .npy file: a Python dict literal such as
// {'descr': '<c8', 'fortran_order': False, 'shape': (3, 64), }, padded with spaces and a newline.
struct NpyHeader {
  std::string descr;
  bool fortran_order = false;
  std::vector<uint64_t> shape;
  std::string shape_text;
};

// A strict reader of that literal: exactly the three keys, each once, and nothing else.
class HeaderParser {
 public:
  HeaderParser(const std::string& text, const std::string& name) : t_(text), name_(name) {}

  NpyHeader parse() {
    NpyHeader h;
    bool seen_descr = false, seen_order = false, seen_shape = false;
    expect('{');
    for (skip_space(); peek() != '}'; skip_space()) {
      const std::string key = quoted();
      skip_space();
      expect(':');
      skip_space();
      if (key == "descr" && !seen_descr) {
        h.descr = quoted();
        seen_descr = true;
      } else if (key == "fortran_order" && !seen_order) {
        h.fortran_order = boolean();
        seen_order = true;
      } else if (key == "shape" && !seen_shape) {
        const size_t from = pos_;
        h.shape = shape();
        h.shape_text = t_.substr(from, pos_ - from);
        seen_shape = true;
      } else {
        fail("key '" + key + "' is unknown or repeated; a .npy header has 'descr', 'fortran_order' and 'shape' once each");
      }
      skip_space();
      if (peek() == ',') ++pos_;
      else if (peek() != '}') fail("expected ',' or '}'");
    }
    ++pos_;
    skip_space();
    if (pos_ != t_.size()) fail("text after the closing '}'");
    if (!seen_descr || !seen_order || !seen_shape)
      fail(std::string("missing '") + (!seen_descr ? "descr" : !seen_order ? "fortran_order" : "shape") + "'");
    return h;
  }

 private:
  char peek() const { return pos_ < t_.size() ? t_[pos_] : '\0'; }
  void skip_space() {
    while (pos_ < t_.size() && (t_[pos_] == ' ' || t_[pos_] == '\n' || t_[pos_] == '\t')) ++pos_;
  }
  void expect(char c) {
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++pos_;
  }
  std::string quoted() {
    const char q = peek();
    if (q != '\'' && q != '"') fail("expected a quoted string");
    const size_t end = t_.find(q, pos_ + 1);
    if (end == std::string::npos) fail("unterminated string");
    std::string s = t_.substr(pos_ + 1, end - pos_ - 1);
    pos_ = end + 1;
    return s;
  }
  bool boolean() {
    for (const char* word : {"True", "False"})
      if (t_.compare(pos_, std::strlen(word), word) == 0) {
        pos_ += std::strlen(word);
        return word[0] == 'T';
      }
    fail("'fortran_order' must be True or False");
  }
  std::vector<uint64_t> shape() {
    std::vector<uint64_t> dims;
    expect('(');
    for (skip_space(); peek() != ')'; skip_space()) {
      if (peek() == '-') fail("shape sides must not be negative");
      if (peek() < '0' || peek() > '9') fail("shape sides must be integers");
      uint64_t v = 0;
      while (peek() >= '0' && peek() <= '9') {
        const uint64_t digit = static_cast<uint64_t>(peek() - '0');
        if (v > (UINT64_MAX - digit) / 10) fail("a shape side overflows 64 bits");
        v = v * 10 + digit;
        ++pos_;
      }
      if (peek() == 'L') ++pos_;  // Python 2 long suffix
      dims.push_back(v);
      skip_space();
      if (peek() == ',') ++pos_;
      else if (peek() != ')') fail("expected ',' or ')' in the shape");
    }
    ++pos_;
    return dims;
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw NpyError(name_ + ": malformed .npy header at character " + std::to_string(pos_) + ": " + what);
  }

  const std::string& t_;
  const std::string& name_;
  size_t pos_ = 0;
};

std::string describe_dtype(const std::string& descr) {
  static const std::pair<const char*, const char*> names[] = {
      {"<c16", "complex128"}, {"<c8", "complex64"}, {"<f4", "float32"}, {"<f8", "float64"},
      {"<f2", "float16"},     {"<i4", "int32"},     {"<i8", "int64"},   {"|u1", "uint8"},
      {">c8", "big-endian complex64"}};
  for (const auto& [d, n] : names)
    if (descr == d) return "'" + descr + "' (" + n + ")";
  return "'" + descr + "'";
}

}  // namespace

namespace {
struct NpyDtype {
  NpyType type;
  const char* descr;
  const char* described;
  uint32_t words;
};
constexpr NpyDtype kNpyDtypes[] = {{NpyType::complex64, "<c8", "complex64 ('<c8')", 2},
                                   {NpyType::float32, "<f4", "float32 ('<f4')", 1},
                                   {NpyType::complex128, "<c16", "complex128 ('<c16')", 4},
                                   {NpyType::float64, "<f8", "float64 ('<f8')", 2}};
const NpyDtype& dtype_of(NpyType type) { return kNpyDtypes[static_cast<size_t>(type)]; }
}  // namespace

const char* describe(NpyType type) { return dtype_of(type).described; }
uint32_t npy_words(NpyType type) { return dtype_of(type).words; }

NpyArray read_npy(const std::filesystem::path& path) {
  const std::string name = path.string();
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw NpyError(name + ": no such file");
  if (!std::filesystem::is_regular_file(path, ec)) throw NpyError(name + ": not a regular file");
  const uint64_t size = std::filesystem::file_size(path, ec);
  if (ec) throw NpyError(name + ": cannot read its size: " + ec.message());
  std::ifstream in(path, std::ios::binary);
  if (!in) throw NpyError(name + ": cannot open");
  return read_npy(in, size, name);
}

NpyArray read_npy(std::istream& in, uint64_t file_size, const std::string& name) {
  char magic[8];
  if (file_size < 10 || !in.read(magic, 8) || std::memcmp(magic, "\x93NUMPY", 6) != 0)
    throw NpyError(name + ": not a .npy file (missing the \\x93NUMPY magic)");
  const int major = static_cast<unsigned char>(magic[6]);
  uint64_t header_len = 0, preamble = 0;
  if (major == 1) {
    unsigned char b[2];
    if (!in.read(reinterpret_cast<char*>(b), 2)) throw NpyError(name + ": truncated header");
    header_len = b[0] | (b[1] << 8);
    preamble = 10;
  } else if (major == 2 || major == 3) {
    unsigned char b[4];
    if (!in.read(reinterpret_cast<char*>(b), 4)) throw NpyError(name + ": truncated header");
    header_len = b[0] | (b[1] << 8) | (b[2] << 16) | (uint64_t{b[3]} << 24);
    preamble = 12;
  } else {
    throw NpyError(name + ": unsupported .npy version " + std::to_string(major) + " (1, 2 and 3 are)");
  }
  if (header_len > kMaxNpyHeaderBytes)
    throw NpyError(name + ": the header claims " + std::to_string(header_len) + " bytes; at most " +
                   std::to_string(kMaxNpyHeaderBytes) + " are accepted");
  if (preamble + header_len > file_size)
    throw NpyError(name + ": truncated header: it claims " + std::to_string(header_len) +
                   " bytes, the file holds " + std::to_string(file_size - std::min(file_size, preamble)) +
                   " after the preamble");
  std::string header(header_len, '\0');
  if (!in.read(header.data(), static_cast<std::streamsize>(header_len))) throw NpyError(name + ": truncated header");
  const NpyHeader h = HeaderParser(header, name).parse();

  const NpyDtype* dtype = nullptr;
  for (const NpyDtype& d : kNpyDtypes)
    if (h.descr == d.descr) dtype = &d;
  if (!dtype)
    throw NpyError(name + ": dtype " + describe_dtype(h.descr) +
                   " is not supported; '<c8' (complex64) or '<f4' (float32), little-endian, is required "
                   "(numpy: x.astype(np.complex64) or x.astype(np.float32); fp64 kernels: '<c16' or '<f8')");
  NpyArray a;
  a.type = dtype->type;
  a.shape = h.shape;
  if (a.shape.empty() || a.shape.size() > 4)
    throw NpyError(name + ": shape " + h.shape_text + " is not supported; 1 to 4 dimensions are");
  size_t non_trivial = 0;
  for (auto d : a.shape) non_trivial += d > 1;
  if (non_trivial > 1 && h.fortran_order)
    throw NpyError(name + ": Fortran-ordered arrays are not supported (numpy: np.ascontiguousarray)");
  const uint64_t data_bytes = file_size - preamble - header_len;
  const uint64_t value_bytes = 4 * uint64_t{dtype->words};
  uint64_t count = 1;
  for (auto d : a.shape) {
    if (d && count > data_bytes / value_bytes / d)  // more than the file can hold (or overflow)
      throw NpyError(name + ": truncated: shape " + h.shape_text + " needs more bytes of data than the " +
                     std::to_string(data_bytes) + " the file holds");
    count *= d;
  }
  if (count == 0) throw NpyError(name + ": shape " + h.shape_text + " holds no elements");
  const uint64_t expected = count * value_bytes;
  if (data_bytes < expected)
    throw NpyError(name + ": truncated: shape " + h.shape_text + " needs " + std::to_string(expected) +
                   " bytes of data, the file holds " + std::to_string(data_bytes));
  if (data_bytes > expected)
    throw NpyError(name + ": shape " + h.shape_text + " needs " + std::to_string(expected) +
                   " bytes of data, the file holds " + std::to_string(data_bytes) +
                   " (the header does not describe the data)");
  a.values.resize(expected / 4);
  if (!in.read(reinterpret_cast<char*>(a.values.data()), static_cast<std::streamsize>(expected)))
    throw NpyError(name + ": read failed");
  return a;
}

ComplexArray read_npy_complex64(const std::filesystem::path& path) {
  NpyArray a = read_npy(path);
  if (a.type != NpyType::complex64)
    throw NpyError(path.string() + ": dtype " + describe(a.type) + " is not supported here; '<c8' (complex64) is required "
                   "(numpy: x.astype(np.complex64))");
  if (a.shape.size() > 2)
    throw NpyError(path.string() + ": " + std::to_string(a.shape.size()) +
                   " dimensions are not supported here; [N] or [batch, N] is required");
  ComplexArray c;
  c.shape = a.shape;
  c.data.resize(a.values.size() / 2);
  std::memcpy(static_cast<void*>(c.data.data()), a.values.data(), a.values.size() * 4);
  return c;
}

std::vector<char> encode_npy_complex64(const ComplexArray& a) {
  NpyArray n{NpyType::complex64, a.shape, std::vector<float>(a.data.size() * 2)};
  std::memcpy(n.values.data(), a.data.data(), a.data.size() * 8);
  return encode_npy(n);
}

void write_npy_complex64(const std::filesystem::path& path, const ComplexArray& a) {
  write_npy(path, {NpyType::complex64, a.shape,
                   std::vector<float>(reinterpret_cast<const float*>(a.data.data()),
                                      reinterpret_cast<const float*>(a.data.data()) + 2 * a.data.size())});
}

std::vector<char> encode_npy(const NpyArray& a) {
  std::string shape = "(";
  for (size_t i = 0; i < a.shape.size(); ++i) shape += std::to_string(a.shape[i]) + ", ";
  if (a.shape.size() > 1) shape.erase(shape.size() - 2);  // "(3, 4)"; a 1-tuple keeps "(3,)"
  else shape.erase(shape.size() - 1);
  shape += ")";
  const std::string descr = dtype_of(a.type).descr;
  std::string header = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
  // Pad with spaces so the data start at a multiple of 64 bytes, ending with a newline.
  const size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::vector<char> out;
  out.reserve(10 + header.size() + a.values.size() * 4);
  const char magic[] = {'\x93', 'N', 'U', 'M', 'P', 'Y', 1, 0};
  out.insert(out.end(), magic, magic + 8);
  out.push_back(static_cast<char>(header.size() & 0xff));
  out.push_back(static_cast<char>(header.size() >> 8));
  out.insert(out.end(), header.begin(), header.end());
  const char* p = reinterpret_cast<const char*>(a.values.data());
  out.insert(out.end(), p, p + a.values.size() * 4);
  return out;
}

void write_npy(const std::filesystem::path& path, const NpyArray& a) {
  const auto bytes = encode_npy(a);
  auto tmp = path;
  tmp += ".tmp-fftgen-" + std::to_string(::getpid());  // two writers never share a temporary
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw NpyError(path.string() + ": cannot create (is the directory writable?)");
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) {
      std::error_code ec;
      std::filesystem::remove(tmp, ec);
      throw NpyError(path.string() + ": write failed (disk full?)");
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    throw NpyError(path.string() + ": cannot rename the temporary file into place");
  }
}

}  // namespace fftgen::vk
