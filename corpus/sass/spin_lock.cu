// spin_lock.cu: a global spin lock, one thread per block (issue 13 item 4: a lock's atom.cas
// and atom.exch are ATOMG, counted under op_atom; warpscope counted the unlock's unused
// exchange as op_red). Thread 0 of each block takes the lock (atomicCAS until it reads 0),
// adds its block's count to a counter, releases with an atomicExch whose result is unused.
// Retries depend on which block holds the lock: timing between blocks, so only the unlock
// and the counter are exact (one per block); the lock's own requests are at least one per block.
extern "C" __global__ void spin_lock_counter(int* lock, int* counter) {
  if (threadIdx.x == 0) {
    while (atomicCAS(lock, 0, 1) != 0) {
    }
    __threadfence();
    *counter += 1;
    __threadfence();
    atomicExch(lock, 0);
  }
}
