# Shared atomics (both forms) and ldmatrix.
shared int counter[32]
atomic counter[0]        # value-returning ATOMS: 32 lanes on one address serialize
atomic_agg counter[0]    # ATOMS.POPC.INC: the lanes merge into one
atomic counter[lane % 4] # four addresses in four banks, 8 lanes each: 8 wavefronts
shared half a[64][8]     # 16-byte rows packed together
ldmatrix.x4 a[lane][0]   # 4 matrices, each 8 rows in one wavefront
shared half b[64][64]    # 128-byte rows: every row starts in bank 0
ldmatrix.x4 b[lane][0]   # 8-way per matrix
