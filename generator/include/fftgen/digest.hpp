// SHA-256 of text, to name what a build used (the wisdom table in a kernel's header and manifest).
#pragma once
#include <string>
#include <string_view>

namespace fftgen {

/// SHA-256 of `bytes` as 64 lower-case hex digits (OpenSSL's libcrypto).
std::string sha256_hex(std::string_view bytes);

}  // namespace fftgen
