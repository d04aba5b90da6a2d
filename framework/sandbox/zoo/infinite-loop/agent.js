// Reports a move, then never returns.
export default {
  name: 'infinite-loop',
  chooseMove(ctx) {
    ctx.report(2, 5);
    for (;;) {}
  },
};
