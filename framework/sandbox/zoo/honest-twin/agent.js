// The clock-freezer's honest twin: the same 650 ms of CPU work, its clocks left alone.
export default {
  name: 'honest-twin',
  chooseMove(ctx) {
    const start = process.cpuUsage();
    let x = 0;
    while (process.cpuUsage(start).user < 650_000) for (let i = 0; i < 10_000; i++) x += i;
    return { move: ctx.game.legalMoves(ctx.state)[0], value: x > 0 ? 0 : 1 };
  },
};
