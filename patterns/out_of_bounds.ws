# An index outside its array is an error at the index, naming the thread that made it.
block 32 4
shared float tile[32][32]
load tile[ty * 8 + tx / 4][tx]
load tile[tx][ty + 29]
