// Z[k] = X[k] + i Y[k] of two real signals packed as x + i y; `mirrored`: x and y are X[N-k] and
// Y[N-k], conjugated first.
vec2 pair_merge(vec2 x, vec2 y, bool mirrored) {
  if (mirrored) {
    x.y = -x.y;
    y.y = -y.y;
  }
  return vec2(x.x - y.y, x.y + y.x);
}
