// unused_fields.cu: a struct read by value of which the kernel uses some words (curand's
// XORWOW state, whose double-precision Box-Muller fields curand_normal never reads). nvcc's
// PTX loads the struct in 8-byte pieces (ld.global.v2.u32); ptxas drops the words nothing
// reads and narrows a piece with one used word to a 4-byte load.
//
//   unused_fields_state   each thread reads a 40-byte State {u32 v[5]; u32 flag; u32 spare;
//                         u32 counter; float extra; u32 pad} and uses every word but spare
//                         and pad: ld.v2 at 0, 8, 16 (both words used: LDG.E.64), 24
//                         {spare, counter} and 32 {extra, pad} (one word used: LDG.E).
//                         out[i] = the words it used, mixed.
// Grid 64, block 256; states: 16384 x 40 bytes (8-byte aligned, as curand's state is).
struct __align__(8) State {
  unsigned v[5];
  unsigned flag;
  unsigned spare;
  unsigned counter;
  float extra;
  unsigned pad;
};

extern "C" __global__ void unused_fields_state(float* out, const State* states) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  State s = states[i];
  unsigned x = s.v[0] ^ (s.v[1] << 1) ^ (s.v[2] << 2) ^ (s.v[3] << 3) ^ (s.v[4] << 4) ^ s.counter;
  out[i] = s.flag ? s.extra : static_cast<float>(x);
}
