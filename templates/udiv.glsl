// x div d for a constant d that is not a power of two: a multiply-high by a magic number
// (Granlund & Montgomery 1994; exact for every 32-bit x). The high word is assembled from 16-bit
// halves rather than umulExtended, which SPIRV-Cross cannot express in HLSL.
uint mulhi(uint a, uint b) {
  uint a_lo = a & 0xFFFFu, a_hi = a >> 16u, b_lo = b & 0xFFFFu, b_hi = b >> 16u;
  uint hi_lo = a_hi * b_lo;
  uint cross = ((a_lo * b_lo) >> 16u) + (hi_lo & 0xFFFFu) + a_lo * b_hi;
  return a_hi * b_hi + (hi_lo >> 16u) + (cross >> 16u);
}
uint udiv(uint x, uint magic, uint shift) {
  uint hi = mulhi(x, magic);
  return (hi + ((x - hi) >> 1u)) >> shift;
}
