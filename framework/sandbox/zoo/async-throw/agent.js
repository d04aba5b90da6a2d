// Throws from a timer while chooseMove's promise waits.
export default {
  name: 'async-throw',
  chooseMove() {
    setTimeout(() => {
      throw new TypeError('thrown later, from a timer');
    }, 10);
    return new Promise(() => {});
  },
};
