// Freezes every clock a grader inside its process could read, then works for about 650 ms of
// real CPU time while its own clocks say no time passed. The parent's CPU meter is not fooled.
const realCpu = process.cpuUsage.bind(process);
const frozenMs = performance.now();
const frozenDate = Date.now();
const frozenHr = process.hrtime.bigint();
performance.now = () => frozenMs;
Date.now = () => frozenDate;
process.hrtime.bigint = () => frozenHr;
process.hrtime = () => [0, 0];
process.cpuUsage = () => ({ user: 0, system: 0 });

export default {
  name: 'freezes-clock',
  chooseMove(ctx) {
    const start = realCpu();
    let x = 0;
    while (realCpu(start).user < 650_000) for (let i = 0; i < 10_000; i++) x += i;
    return { move: ctx.game.legalMoves(ctx.state)[0], value: x > 0 ? 0 : 1 };
  },
};
