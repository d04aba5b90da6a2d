// Fills the JavaScript heap until V8 gives up.
export default {
  name: 'heap-bomb',
  chooseMove() {
    const hoard = [];
    for (;;) hoard.push(new Array(100_000).fill(1.5));
  },
};
