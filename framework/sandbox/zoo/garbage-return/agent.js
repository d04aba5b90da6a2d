// Returns something that is not a move.
export default {
  name: 'garbage-return',
  chooseMove() {
    return { move: 'seven', because: 'why not' };
  },
};
