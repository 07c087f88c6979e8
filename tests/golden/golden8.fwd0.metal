#include <metal_stdlib>
#include <simd/simd.h>

using namespace metal;

struct Params
{
    uint batch;
    uint group_offset;
    uint src_stride;
    uint dst_stride;
};

struct Src
{
    float2 src[1];
};

struct Dst
{
    float2 dst[1];
};

constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(256u, 1u, 1u);

kernel void main0(constant Params& params [[buffer(0)]], const device Src& _363 [[buffer(1)]], device Dst& _442 [[buffer(2)]], uint3 gl_LocalInvocationID [[thread_position_in_threadgroup]], uint3 gl_WorkGroupID [[threadgroup_position_in_grid]])
{
    uint _330 = ((gl_WorkGroupID.x + params.group_offset) << 8u) + gl_LocalInvocationID.x;
    bool _338 = _330 < params.batch;
    uint _344 = _330 * params.src_stride;
    float2 _786;
    float2 _787;
    float2 _788;
    float2 _789;
    float2 _790;
    float2 _791;
    float2 _792;
    float2 _793;
    if (_338)
    {
        _793 = _363.src[_344 + 7u];
        _792 = _363.src[_344 + 6u];
        _791 = _363.src[_344 + 5u];
        _790 = _363.src[_344 + 4u];
        _789 = _363.src[_344 + 3u];
        _788 = _363.src[_344 + 2u];
        _787 = _363.src[_344 + 1u];
        _786 = _363.src[_344];
    }
    else
    {
        _793 = float2(0.0);
        _792 = float2(0.0);
        _791 = float2(0.0);
        _790 = float2(0.0);
        _789 = float2(0.0);
        _788 = float2(0.0);
        _787 = float2(0.0);
        _786 = float2(0.0);
    }
    float _538 = _786.x + _790.x;
    float _543 = _786.y + _790.y;
    float _548 = _786.x - _790.x;
    float _553 = _786.y - _790.y;
    float _558 = _788.x + _792.x;
    float _563 = _788.y + _792.y;
    float _568 = _788.x - _792.x;
    float _573 = _788.y - _792.y;
    float _576 = _538 + _558;
    float _579 = _543 + _563;
    float _582 = _538 - _558;
    float _585 = _543 - _563;
    float _588 = _548 + _573;
    float _591 = _553 - _568;
    float _594 = _548 - _573;
    float _597 = _553 + _568;
    float _602 = _787.x + _791.x;
    float _607 = _787.y + _791.y;
    float _612 = _787.x - _791.x;
    float _617 = _787.y - _791.y;
    float _622 = _789.x + _793.x;
    float _627 = _789.y + _793.y;
    float _632 = _789.x - _793.x;
    float _637 = _789.y - _793.y;
    float _640 = _602 + _622;
    float _643 = _607 + _627;
    float _646 = _602 - _622;
    float _649 = _607 - _627;
    float _676 = _612 + _617;
    float _679 = _617 - _612;
    float _686 = _637 - _632;
    float _689 = _632 + _637;
    float _696 = fma(0.707106769084930419921875, _676, 0.707106769084930419921875 * _686);
    float _699 = fma(0.707106769084930419921875, _679, _689 * (-0.707106769084930419921875));
    float _702 = fma(0.707106769084930419921875, _676, _686 * (-0.707106769084930419921875));
    float _705 = fma(0.707106769084930419921875, _679, 0.707106769084930419921875 * _689);
    if (_338)
    {
        uint _436 = _330 * params.dst_stride;
        _442.dst[_436] = float2(_576 + _640, _579 + _643);
        _442.dst[_436 + 1u] = float2(_588 + _696, _591 + _699);
        _442.dst[_436 + 2u] = float2(_582 + _649, _585 - _646);
        _442.dst[_436 + 3u] = float2(_594 + _705, _597 - _702);
        _442.dst[_436 + 4u] = float2(_576 - _640, _579 - _643);
        _442.dst[_436 + 5u] = float2(_588 - _696, _591 - _699);
        _442.dst[_436 + 6u] = float2(_582 - _649, _585 + _646);
        _442.dst[_436 + 7u] = float2(_594 - _705, _597 + _702);
    }
}

