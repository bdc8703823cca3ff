# A 32x32 tile transpose reads its tile column-wise: tile[tx][ty] in a 32x8 block.
block 32 8
shared float tile[32][32]
shared float padded[32][33]
load tile[tx][ty]      # lane tx reads word tx*32 + ty: all in bank ty, 32-way
load padded[tx][ty]    # one word of padding per row moves lane tx to bank tx + ty: conflict-free
