// Throws from chooseMove.
function deeper() {
  throw new Error('the zoo agent gave up');
}
export default {
  name: 'throws',
  chooseMove() {
    deeper();
  },
};
