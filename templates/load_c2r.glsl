// The inverse of an r2c transform of N = 2H reals from its half spectrum: Z[k] of the half-length
// transform from X[k] and X[H-k], w = W_N^k (conjugated by twiddle_mul in the inverse).
vec2 c2r_merge(vec2 a, vec2 b, vec2 w) {
  vec2 s = vec2(a.x + b.x, a.y - b.y);
  vec2 d = twiddle_mul(vec2(a.x - b.x, a.y + b.y), w);
  return vec2(s.x - d.y, s.y + d.x);
}
