// Bluestein's chirp in the inverse kernel: conj(w_n) = exp(+pi i n^2 / N).
vec2 conj_chirp(vec2 w) { return vec2(w.x, -w.y); }
