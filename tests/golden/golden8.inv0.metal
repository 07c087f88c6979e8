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
    float2 _795;
    float2 _796;
    float2 _797;
    float2 _798;
    float2 _799;
    float2 _800;
    float2 _801;
    float2 _802;
    if (_338)
    {
        _802 = _363.src[_344 + 7u];
        _801 = _363.src[_344 + 6u];
        _800 = _363.src[_344 + 5u];
        _799 = _363.src[_344 + 4u];
        _798 = _363.src[_344 + 3u];
        _797 = _363.src[_344 + 2u];
        _796 = _363.src[_344 + 1u];
        _795 = _363.src[_344];
    }
    else
    {
        _802 = float2(0.0);
        _801 = float2(0.0);
        _800 = float2(0.0);
        _799 = float2(0.0);
        _798 = float2(0.0);
        _797 = float2(0.0);
        _796 = float2(0.0);
        _795 = float2(0.0);
    }
    float _547 = _795.x + _799.x;
    float _552 = _795.y + _799.y;
    float _557 = _795.x - _799.x;
    float _562 = _795.y - _799.y;
    float _567 = _797.x + _801.x;
    float _572 = _797.y + _801.y;
    float _577 = _797.x - _801.x;
    float _582 = _797.y - _801.y;
    float _585 = _547 + _567;
    float _588 = _552 + _572;
    float _591 = _547 - _567;
    float _594 = _552 - _572;
    float _597 = _557 - _582;
    float _600 = _562 + _577;
    float _603 = _557 + _582;
    float _606 = _562 - _577;
    float _611 = _796.x + _800.x;
    float _616 = _796.y + _800.y;
    float _621 = _796.x - _800.x;
    float _626 = _796.y - _800.y;
    float _631 = _798.x + _802.x;
    float _636 = _798.y + _802.y;
    float _641 = _798.x - _802.x;
    float _646 = _798.y - _802.y;
    float _649 = _611 + _631;
    float _652 = _616 + _636;
    float _655 = _611 - _631;
    float _658 = _616 - _636;
    float _685 = _621 - _626;
    float _688 = _621 + _626;
    float _695 = _641 + _646;
    float _698 = _641 - _646;
    float _705 = fma(0.707106769084930419921875, _685, _695 * (-0.707106769084930419921875));
    float _708 = fma(0.707106769084930419921875, _688, 0.707106769084930419921875 * _698);
    float _711 = fma(0.707106769084930419921875, _685, 0.707106769084930419921875 * _695);
    float _714 = fma(0.707106769084930419921875, _688, _698 * (-0.707106769084930419921875));
    if (_338)
    {
        uint _436 = _330 * params.dst_stride;
        _442.dst[_436] = float2(_585 + _649, _588 + _652) * 0.125;
        _442.dst[_436 + 1u] = float2(_597 + _705, _600 + _708) * 0.125;
        _442.dst[_436 + 2u] = float2(_591 - _658, _594 + _655) * 0.125;
        _442.dst[_436 + 3u] = float2(_603 - _714, _606 + _711) * 0.125;
        _442.dst[_436 + 4u] = float2(_585 - _649, _588 - _652) * 0.125;
        _442.dst[_436 + 5u] = float2(_597 - _705, _600 - _708) * 0.125;
        _442.dst[_436 + 6u] = float2(_591 + _658, _594 - _655) * 0.125;
        _442.dst[_436 + 7u] = float2(_603 + _714, _606 - _711) * 0.125;
    }
}

