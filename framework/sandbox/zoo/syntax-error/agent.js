// A syntax error on line 4.
export default {
  name: 'syntax-error',
  chooseMove(ctx) { return ctx.game.legalMoves(ctx.state)[0] +; },
};
