#version 450
// Copy floor of `fftgen-vk bench`: one vec4 read and one vec4 write per invocation, the least
// traffic any out-of-place transform of the same bytes can cause.
layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer Src { vec4 src[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Dst { vec4 dst[]; };
layout(push_constant) uniform Push {
  uint count;         // vec4 elements to copy
  uint group_offset;  // first workgroup of this dispatch (dispatches are split at the x limit)
} pc;
void main() {
  uint i = (gl_WorkGroupID.x + pc.group_offset) * 256u + gl_LocalInvocationID.x;
  if (i < pc.count) dst[i] = src[i];
}
