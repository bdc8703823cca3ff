# Loop variables, lane masks and predicates.
shared float s[32][64]
for k in 0..8 step 2
load s[k][lane*2]              # 2-way in every iteration: one behaviour, 4 executions
mask 0x0000ffff
load s[k][lane*2]              # half the warp: the conflict is gone
mask 0xffffffff
store s[lane][k] if lane < 8   # column writes: 8 lanes, stride 64 words, 8-way
