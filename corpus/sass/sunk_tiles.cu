// sunk_tiles.cu: Triton's epilogue of two tiles through shared memory (attorch's layer-norm
// backward stores its weight and bias gradients this way): two shared loads, then one
// predicated store of each (Triton's inline-asm `@%p st.global.v4.b32`), then ret. ptxas keeps
// the first load, stores it, exits the lanes whose second store is off, and only then runs the
// second load: it runs for the warps that store it (sunk_loads.h).
//   two_tile_epilogue   block 128, grid 64; tile 1 is stored by the even warps only
#include <cstdint>

__device__ __forceinline__ void store_if(float4* p, float4 v, bool on) {
  asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %5, 0;\n\t@p st.global.v4.b32 [%0], {%1, %2, %3, %4};\n\t}"
               :: "l"(p), "r"(__float_as_uint(v.x)), "r"(__float_as_uint(v.y)), "r"(__float_as_uint(v.z)),
                  "r"(__float_as_uint(v.w)), "r"(static_cast<int>(on)));
}

extern "C" __global__ void two_tile_epilogue(float4* out, const float4* in) {
  __shared__ float4 tile[2][128];
  const int t = threadIdx.x, b = blockIdx.x;
  tile[0][t] = in[b * 256 + t];
  tile[1][t] = in[b * 256 + 128 + t];
  __syncthreads();
  const float4 x = tile[0][t ^ 1];
  const float4 y = tile[1][t ^ 1];
  store_if(out + b * 256 + t, x, true);
  store_if(out + b * 256 + 128 + t, y, (t / 32) % 2 == 0);
}
