// Grid-based neighbour search, the four kernels of a uniform-grid particle step (with the
// sort between them done on the host side: its result is a data file). 4096 particles in
// the unit cube, a 16^3 grid of cells (cell size 1/16, search radius one cell).
// Data (data/, `file:`): particles_pos.bin (4096 float4), particles_sorted.bin (4096 pairs
// {cell hash, particle index} sorted by hash), particles_cell_start.bin and
// particles_cell_end.bin (4096 cells each, 0xffffffff where empty), particles_sorted_pos.bin
// (the positions in sorted order).
//
// particles_hash: cell hash (z*256 + y*16 + x) and index per particle (two u32 arrays).
// particles_cell_start: sorted hashes; each thread stages its hash in shared memory
//   (plus the block's left neighbour), and where the hash differs from the previous one
//   writes cellStart[hash] = i and cellEnd[prev] = i: a scatter whose addresses depend on
//   the data.
// particles_reorder: gathers positions and velocities into sorted order (index from the
//   file: a random gather of 16-byte records).
// particles_collide: for each particle (sorted order), the 27 neighbour cells' ranges from
//   cellStart/cellEnd and every particle in them: data-dependent loop counts and gathers.
// Grid 16 x 256.

#define GRID 16
#define CELLS (GRID * GRID * GRID)

__device__ __forceinline__ int cell_coord(float p) {
  return min(max(__float2int_rd(p * GRID), 0), GRID - 1);
}

extern "C" __global__ void particles_hash(unsigned* hashes, unsigned* indices, const float4* pos) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float4 p = pos[i];
  hashes[i] = (cell_coord(p.z) * GRID + cell_coord(p.y)) * GRID + cell_coord(p.x);
  indices[i] = i;
}

// sorted: n {hash, index} pairs; cell_start / cell_end: CELLS entries each.
extern "C" __global__ void particles_cell_start(unsigned* cell_start, unsigned* cell_end, const uint2* sorted, int n) {
  __shared__ unsigned s_hash[257];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned h = sorted[i].x;
  s_hash[threadIdx.x + 1] = h;
  if (threadIdx.x == 0) s_hash[0] = i > 0 ? sorted[i - 1].x : 0xffffffffu;
  __syncthreads();
  const unsigned prev = s_hash[threadIdx.x];
  if (i == 0 || h != prev) {
    cell_start[h] = i;
    if (i > 0) cell_end[prev] = i;
  }
  if (i == n - 1) cell_end[h] = n;
}

extern "C" __global__ void particles_reorder(float4* sorted_pos, float4* sorted_vel, const uint2* sorted,
                                             const float4* pos, const float4* vel) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned src = sorted[i].y;
  sorted_pos[i] = pos[src];
  sorted_vel[i] = vel[src];
}

extern "C" __global__ void particles_collide(float4* force, const float4* sorted_pos, const unsigned* cell_start,
                                             const unsigned* cell_end, float radius) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float4 p = sorted_pos[i];
  const int cx = cell_coord(p.x), cy = cell_coord(p.y), cz = cell_coord(p.z);
  float fx = 0.0f, fy = 0.0f, fz = 0.0f;
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const int x = cx + dx, y = cy + dy, z = cz + dz;
        if (x < 0 || y < 0 || z < 0 || x >= GRID || y >= GRID || z >= GRID) continue;
        const int cell = (z * GRID + y) * GRID + x;
        const unsigned start = cell_start[cell];
        if (start == 0xffffffffu) continue;
        const unsigned end = cell_end[cell];
        for (unsigned j = start; j < end; ++j) {
          if (j == (unsigned)i) continue;
          const float4 q = sorted_pos[j];
          const float rx = p.x - q.x, ry = p.y - q.y, rz = p.z - q.z;
          const float d2 = rx * rx + ry * ry + rz * rz;
          if (d2 < radius * radius && d2 > 0.0f) {
            const float k = (radius - sqrtf(d2)) / sqrtf(d2);
            fx += rx * k; fy += ry * k; fz += rz * k;
          }
        }
      }
  force[i] = make_float4(fx, fy, fz, 0.0f);
}
