// Plays the first legal move.
export default {
  name: 'first-legal',
  chooseMove(ctx) {
    return { move: ctx.game.legalMoves(ctx.state)[0] ?? -1, value: 0 };
  },
};
