// Returns a promise that never settles.
export default {
  name: 'never-resolves',
  chooseMove() {
    return new Promise(() => {});
  },
};
