#version 450
{{{extensions}}}// {{{header}}}
// {{{summary}}}
layout(local_size_x = {{workgroup_size}}, local_size_y = 1, local_size_z = 1) in;

{{{interface}}}
{{{shared}}}

vec2 cmul(vec2 a, vec2 b) { return vec2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
// Twiddles are stored for the forward transform, exp(-2*pi*i*m/L); the inverse conjugates them.
vec2 twiddle_mul(vec2 a, vec2 w) { return cmul(a, {{{twiddle_operand}}}); }
{{#computed_twiddles}}
vec2 twiddle(uint m, float angle_per_step) {
  float a = float(m) * angle_per_step;
  return vec2(cos(a), -sin(a));
}
{{/computed_twiddles}}

{{{codelets}}}
{{{passes}}}
// Every pass of this direction in one dispatch (pass_sync counters; CounterSchedule in program.hpp).
// Each workgroup takes the next ticket and computes the ticket's item, a workgroup of one pass over
// one transform, once the previous pass has finished that transform. Tickets go round by round:
// round r holds the items of pass p over transform r - p * kLag, so an item waits only on earlier
// tickets, taken by workgroups already running. sync.data[0] is the next ticket; then per pass p
// but the last and transform b, sync.data[1 + p * batch + b] counts the workgroups of pass p done
// with b, then those of pass p + 1 that have seen them all; the last of these clears it. Each call
// leaves every counter zero.
const uint kPasses = {{pass_count}}u;
const uint kLag = {{lag}}u;
const uint kItemsPerTransform = {{items_per_transform}}u;  // the tickets of a round where every pass has work
shared uint claimed[3];  // the pass, the transform and the pass's workgroup this workgroup computes
                         // (CounterSchedule::kSharedBytes)

// Workgroups per transform of pass p.
uint items(uint p) {
  return {{{items_of_pass}}};
}

// The tickets of the rounds before round r.
uint tickets_before(uint r) {
  return {{{tickets_before}}};
}

// The round of `ticket`: the last round whose first ticket is not past it. From round
// (kPasses - 1) * kLag to the batch's last transform every pass has work, kItemsPerTransform tickets
// a round; the rounds before and after have fewer.
uint round_of(uint ticket) {
  uint full = (kPasses - 1u) * kLag;
  if (params.batch > full) {
    uint first = tickets_before(full);
    if (ticket >= first && ticket - first < (params.batch - full) * kItemsPerTransform)
      return full + (ticket - first) / kItemsPerTransform;
  }
  uint lo = 0u;
  uint hi = params.batch + full;
  while (hi - lo > 1u) {
    uint mid = (lo + hi) >> 1u;
    if (tickets_before(mid) <= ticket) lo = mid;
    else hi = mid;
  }
  return lo;
}

void main() {
  uint t = gl_LocalInvocationID.x;
  uint seen = 0u;  // invocation 0: the workgroups of this pass that had seen the previous pass done
  if (t == 0u) {
    uint ticket = atomicAdd(sync.data[0], 1u);
    // The call's last ticket: every workgroup has its own, so the next call starts from 0.
    if (ticket + 1u == params.batch * kItemsPerTransform) atomicExchange(sync.data[0], 0u);
    uint r = round_of(ticket);
    uint offset = ticket - tickets_before(r);
    uint pass = 0u;
    for (uint p = 0u; p < kPasses; ++p) {
      if (r < p * kLag || r - p * kLag >= params.batch) continue;
      pass = p;
      if (offset < items(p)) break;
      offset -= items(p);
    }
    uint transform = r - pass * kLag;
    if (pass > 0u) {
      uint previous = 1u + (pass - 1u) * params.batch + transform;
      while (atomicAdd(sync.data[previous], 0u) < items(pass - 1u)) {
      }
      memoryBarrierBuffer();
      // Counted among those that have seen it; the result is used after the pass.
      seen = atomicAdd(sync.data[previous], 1u) + 1u;
    }
    claimed[0] = pass;
    claimed[1] = transform;
    claimed[2] = transform * items(pass) + offset;
  }
  memoryBarrierShared();
  barrier();
  uint pass = claimed[0];
  uint transform = claimed[1];
  uint group = claimed[2];
{{{calls}}}
  // The values for the next pass reach the other workgroups before the count that announces them.
  // The last pass's are the call's output: nothing in the dispatch reads them, and waiting for them
  // would keep the workgroup from retiring.
  if (pass + 1u < kPasses) {
    memoryBarrierBuffer();
    barrier();
    if (t == 0u) atomicAdd(sync.data[1u + pass * params.batch + transform], 1u);
  }
  // The last of this pass's workgroups to see the previous pass done: nothing reads its counter again.
  if (t == 0u && pass > 0u && seen == items(pass - 1u) + items(pass))
    atomicExchange(sync.data[1u + (pass - 1u) * params.batch + transform], 0u);
}
