// x div d for a constant d that is not a power of two: multiply-high by a magic number
// (Granlund & Montgomery 1994; exact for every 32-bit x).
uint udiv(uint x, uint magic, uint shift) {
  uint hi, lo;
  umulExtended(x, magic, hi, lo);
  return (hi + ((x - hi) >> 1u)) >> shift;
}
