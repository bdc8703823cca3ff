# Wide and narrow elements. 8-byte loads move 256 bytes (2 wavefronts at best), 16-byte
# loads 512 (4); 1-byte loads share words, so 32 chars are one wavefront.
shared double d[64]; load d[lane]
shared float4 v[64]; load v[lane]
shared char c[128]; load c[lane]
shared float4 w[256]; load w[lane*2]   # 16-byte stride-2: twice the ideal
