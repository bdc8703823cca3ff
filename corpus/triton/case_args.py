"""What corpus/triton's cases (cases.py, variant_cases.py) are made of: argument tuples and the
shapes several cases share.

    _t(shape, dtype)              ("tensor", shape, dtype): a tensor
    _desc(shape, dtype, block)    ("desc", ("tensor", ...), block): a host TensorDescriptor
"""


def _t(shape, dtype="float16"):
    return ("tensor", shape, dtype)


def _desc(shape, dtype, block):
    return ("desc", _t(shape, dtype), block)


# Attention: B*H = 4 heads of N_CTX = 256, HEAD_DIM = 64, fp16; M (log2-sum-exp2) and Delta fp32.
BH, N_CTX, D = 4, 256, 64
QKV = (BH, N_CTX, D)
ROWS = (BH, N_CTX)
SM_SCALE = 0.125

# GEMMs: 512^3 fp16, 128 x 128 x 64 tiles (16 output tiles) on 6 persistent programs (2 or 3
# tiles each); B given as (N, K).
MNK = 512
PERSISTENT = dict(NUM_SMS=6, BM=128, BN=128, BK=64, GROUP_M=4, num_warps=8, num_stages=3)
