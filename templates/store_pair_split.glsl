// The spectra of two real signals packed as x + i y, from z = Z[k] and p = Z[N-k]:
// X[k] = (z + conj p) / 2, Y[k] = -i (z - conj p) / 2.
vec2 pair_split_x(vec2 z, vec2 p) { return 0.5 * vec2(z.x + p.x, z.y - p.y); }
vec2 pair_split_y(vec2 z, vec2 p) { return 0.5 * vec2(z.y + p.y, p.x - z.x); }
