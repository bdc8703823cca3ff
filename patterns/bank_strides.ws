# float s[] read by one warp at four strides (the seed articles' first example).
shared float s[1024]
load s[lane]          # consecutive words: one per bank, 1 wavefront
load s[lane*2]        # stride 2: lanes l and l+16 share a bank, 2-way
load s[lane*32]       # stride 32: every lane in bank 0, 32-way
load s[0]             # one word for all lanes: a broadcast, 1 wavefront
