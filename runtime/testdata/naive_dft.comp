#version 450
// A direct O(N^2) DFT with the exact interface of an fftgen pass (docs/manifest.md): bindings
// 0 src / 1 dst / 2 twiddles, push constants batch, group_offset, src_stride, dst_stride, one
// column per output element (columns_per_transform = N, columns_per_workgroup = 64).
// Runtime tests compile it with glslangValidator, defining:
//   N       transform length
//   SIGN    -1.0 forward, 1.0 inverse
//   SCALE   factor applied to the output
//   TABLE   read twiddles from binding 2 (N values exp(-2πik/N)); else compute them
//   COPY    no transform: dst = SCALE * src (a second pass, e.g. scratch -> output)
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer Src { vec2 src[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Dst { vec2 dst[]; };
#ifdef TABLE
layout(std430, set = 0, binding = 2) readonly buffer Tw { vec2 tw[]; };
#endif
layout(push_constant) uniform Push {
  uint batch;
  uint group_offset;
  uint src_stride;
  uint dst_stride;
} pc;

vec2 twiddle(uint m) {
#ifdef TABLE
  vec2 w = tw[m];
  return vec2(w.x, -SIGN * w.y);
#else
  float a = SIGN * 6.283185307179586 * float(m) / float(N);
  return vec2(cos(a), sin(a));
#endif
}

void main() {
  uint col = (gl_WorkGroupID.x + pc.group_offset) * 64u + gl_LocalInvocationID.x;
  uint t = col / uint(N);
  uint k = col % uint(N);
  if (t >= pc.batch) return;
#ifdef COPY
  dst[t * pc.dst_stride + k] = SCALE * src[t * pc.src_stride + k];
#else
  vec2 acc = vec2(0.0);
  for (uint j = 0u; j < uint(N); ++j) {
    vec2 x = src[t * pc.src_stride + j];
    vec2 w = twiddle((j * k) % uint(N));
    acc += vec2(x.x * w.x - x.y * w.y, x.x * w.y + x.y * w.x);
  }
  dst[t * pc.dst_stride + k] = SCALE * acc;
#endif
}
