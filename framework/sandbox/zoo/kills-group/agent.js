// Tries to kill every process of its process group, then waits to see what happens.
export default {
  name: 'kills-group',
  chooseMove() {
    process.kill(0, 'SIGKILL');
    return new Promise((resolve) => setTimeout(() => resolve(0), 300));
  },
};
