// Tries to kill the process that started it, then waits to see what happens.
export default {
  name: 'kills-parent',
  chooseMove() {
    process.kill(process.ppid, 'SIGKILL');
    return new Promise((resolve) => setTimeout(() => resolve(0), 300));
  },
};
