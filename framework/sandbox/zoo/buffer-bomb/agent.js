// Allocates Buffers (outside the JS heap, so the heap limit does not see them) until refused.
export default {
  name: 'buffer-bomb',
  chooseMove() {
    const hoard = [];
    for (;;) hoard.push(Buffer.alloc(64 * 1024 * 1024, 1));
  },
};
