#!/usr/bin/env python3
"""Finds how to run the 32-key bitonic sort of src/model/warp_simd.h on two AVX2
registers, each comparator step comparing register a with register b lane by lane.

The network (Batcher's bitonic sort with every comparator putting the smaller key first):
for block sizes 2, 4, ..., 32, compare key i with its mirror image i ^ (size - 1), then with
i ^ (size / 4), ..., i ^ 1. Each step pairs every key with one partner, so it can run as one
min and one max of a against b, if the keys stand where each pair faces each other.

A layout says which key stands where: a place is (r, k) -- register r (a = 0, b = 1), 16-bit
lane k = k0 + 2 k1 + 4 k2 + 8 k3 (k3: the 128-bit half) -- and key = L(r, k), L linear over
GF(2) on the five bits. A step with partner mask m (top bit h) needs L(r=1) = m and bit h of
every key in a clear. Between steps, moves (shuffles, unpacks, blends) change the layout. The
search: for each step, the layouts reachable with at most two moves, keeping the cheapest
(latency first, on Zen 3: one cycle each, three across the 128-bit halves; then instructions);
then the cheapest way to the final order the counts read (equal_to_previous). It prints the moves, and checks
them by running the network on random keys.

Usage: tools/sort_network_search.py   (about half a minute)
"""
import random

R, K0, K1, K2, K3 = range(5)  # place bits
STEPS = [(1, 0), (3, 1), (1, 0), (7, 2), (2, 1), (1, 0), (15, 3), (4, 2), (2, 1), (1, 0),
         (31, 4), (8, 3), (4, 2), (2, 1), (1, 0)]  # (partner mask, its top bit)
START = (1, 8, 2, 4, 16)   # the first layout (keys enter in any order: any will do)
FINAL = (8, 1, 2, 4, 16)   # keys 0-7, 16-23 in a and 8-15, 24-31 in b: count_sorted's order


def apply(L, p):
    x = 0
    for bit in range(5):
        if p >> bit & 1:
            x ^= L[bit]
    return x


def compose(A, B):  # apply B, then A
    return tuple(apply(A, B[bit]) for bit in range(5))


def inverse(T):
    inv = [0] * 32
    for p in range(32):
        inv[apply(T, p)] = p
    return tuple(inv[1 << bit] for bit in range(5))


def moves():
    """name -> (cost, T): T maps a key's old place bits to its new ones."""
    def perm(m):
        return tuple(1 << m.get(bit, bit) for bit in range(5))
    out = {
        'interleave16': (102, perm({R: K0, K0: K1, K1: K2, K2: R})),  # unpacklo/hi_epi16
        'interleave32': (102, perm({R: K1, K1: K2, K2: R})),          # unpacklo/hi_epi32
        'interleave64': (102, perm({R: K2, K2: R})),                  # unpacklo/hi_epi64
        'halves128': (302, perm({R: K3, K3: R})),                     # permute2x128 x2
        'deal32': (102, perm({K1: R, K2: K1, R: K2})),                # shuffle_ps 0x88/0xdd
    }
    for f in range(1, 16):  # trade<f>: a and b swap the keys where parity(f & k)
        if f & 8 and f & 1:
            continue  # neither vpblendw (k0-k2) nor vpblendd (k1-k3)
        out[f'trade{f:x}'] = (102, tuple([1] + [(1 << (j + 1)) | (f >> j & 1) for j in range(4)]))
    for c in range(1, 16):  # flip<c>: b's key k trades places with k ^ c
        latency = (3 if c & 8 else 0) + (1 if c & 7 else 0)
        out[f'flip{c}'] = (100 * latency + (2 if c & 8 and c & 7 else 1),
                           tuple([1 | (c << 1)] + [1 << (j + 1) for j in range(4)]))
    for p in [(0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]:  # pshufb on both
        for c in range(8):
            out[f'places{"".join(map(str, p))}^{c}'] = (
                102, tuple([1 | (c << 1)] + [1 << (p[j] + 1) for j in range(3)] + [1 << 4]))
    return out


MOVES = moves()
UNDO = [(n, c, inverse(T)) for n, (c, T) in MOVES.items()]


def valid(L, mask, top):
    return L[R] == mask and all(not (L[bit] >> top & 1) for bit in range(1, 5)) \
        and len({apply(L, p) for p in range(32)}) == 32


def reachable(layer, depth):
    seen, frontier = dict(layer), dict(layer)
    for _ in range(depth):
        nxt = {}
        for L, (cost, path) in frontier.items():
            for name, c, Ti in UNDO:
                L2 = compose(L, Ti)
                if L2 not in seen or seen[L2][0] > cost + c:
                    seen[L2] = nxt[L2] = (cost + c, path + [name])
        frontier = nxt
    return seen


def search():
    layer = {START: (0, ['compare'])}
    for mask, top in STEPS[1:]:
        seen = reachable(layer, 2)
        layer = {L: (c, p + ['compare']) for L, (c, p) in seen.items() if valid(L, mask, top)}
        layer = dict(sorted(layer.items(), key=lambda kv: kv[1][0])[:150])
    best = None
    for L, v in reachable(layer, 2).items():
        if L == FINAL and (best is None or v[0] < best[0]):
            best = v
    return best


def run(path, keys):
    """Runs the moves on lists a, b of 16 keys each (AVX2 semantics)."""
    a, b = keys[:16], keys[16:]
    for name in path:
        if name == 'compare':
            a, b = [min(x, y) for x, y in zip(a, b)], [max(x, y) for x, y in zip(a, b)]
            continue
        T = MOVES[name][1]
        na, nb = [None] * 16, [None] * 16
        for p in range(32):
            q = apply(T, p)
            (nb if q & 1 else na)[q >> 1] = (b if p & 1 else a)[p >> 1]
        a, b = na, nb
    return a, b


def main():
    cost, path = search()
    print(f'latency {cost // 100} cycles of moves, {cost % 100} move instructions, 15 compares')
    print('\n'.join(path))
    for _ in range(20000):
        keys = [random.randrange(random.choice([2, 3, 40, 65536])) for _ in range(32)]
        a, b = run(path, keys)
        s = sorted(keys)
        assert a == s[0:8] + s[16:24] and b == s[8:16] + s[24:32], keys
    print('sorts 20000 random inputs')


if __name__ == '__main__':
    main()
