# Global memory: 32-byte sectors and 128-byte lines.
global float a[4096]
load a[lane]          # 128 bytes in 4 sectors: coalesced
load a[lane*2]        # 128 bytes spread over 8 sectors: 50% efficiency, stride
store a[lane + 1]     # shifted by one float: 5 sectors, misalignment
global float4 q[1024]
load q[lane]          # 512 bytes: 16 sectors, 4 lines
