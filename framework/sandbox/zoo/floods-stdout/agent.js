// Prints without end (stdout and a little stderr) until it runs out of time.
export default {
  name: 'floods-stdout',
  chooseMove() {
    const line = 'flood '.repeat(10_000) + '\n';
    for (let i = 0; ; i++) {
      process.stdout.write(line);
      if (i % 100 === 0) process.stderr.write(`flood ${i}\n`);
    }
  },
};
