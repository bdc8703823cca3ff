# The XOR swizzle: column c of row r is stored at c ^ r, so a column read is conflict-free
# without padding. Each warp (ty) sees its own permutation of the banks.
block 32 2
shared float tile[32][32]
load tile[tx][ty ^ tx]     # column ty, read through the swizzle: 1 wavefront
load tile[ty][tx ^ ty]     # row ty: still 1 wavefront
