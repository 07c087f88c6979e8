// {{{header}}}
// {{{summary}}}
// WebGPU: the push constants of the other targets are the uniform buffer `params` (binding {{params_binding}}).

{{{interface}}}
{{#shared_elements}}

var<workgroup> sh: array<{{{shared_type}}}, {{shared_elements}}>;
{{/shared_elements}}

fn cmul(a: vec2<f32>, b: vec2<f32>) -> vec2<f32> { return vec2<f32>(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
// Twiddles are stored for the forward transform, exp(-2*pi*i*m/L); the inverse conjugates them.
fn twiddle_mul(a: vec2<f32>, w: vec2<f32>) -> vec2<f32> { return cmul(a, {{{twiddle_operand}}}); }
{{#computed_twiddles}}
fn twiddle(m: u32, angle_per_step: f32) -> vec2<f32> {
  let a = f32(m) * angle_per_step;
  return vec2<f32>(cos(a), -sin(a));
}
{{/computed_twiddles}}

{{{functions}}}
@compute @workgroup_size({{workgroup_size}}, 1, 1)
fn main(@builtin(local_invocation_id) local_id: vec3<u32>, @builtin(workgroup_id) group_id: vec3<u32>) {
{{{body}}}
}
