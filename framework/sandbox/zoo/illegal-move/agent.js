// Returns a well-formed but illegal move: judging it is the graders' job, not the sandbox's.
export default {
  name: 'illegal-move',
  chooseMove() {
    return { move: 99, value: 0 };
  },
};
