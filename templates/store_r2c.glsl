// X[k] of N = 2H reals from Z = FFT_H(x[2n] + i x[2n+1]): z = Z[k], p = Z[H-k], w = W_N^k.
vec2 r2c_split(vec2 z, vec2 p, vec2 w) {
  vec2 s = vec2(z.x + p.x, z.y - p.y);
  vec2 d = vec2(z.x - p.x, z.y + p.y);
  return 0.5 * (s + twiddle_mul(vec2(d.y, -d.x), w));
}
// X[H] = Re Z[0] - Im Z[0].
vec2 r2c_nyquist(vec2 z) { return vec2(z.x - z.y, 0.0); }
