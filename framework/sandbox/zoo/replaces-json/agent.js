// Replaces what a JavaScript program usually sends messages with, at import: JSON.parse,
// JSON.stringify, console, toJSON on every object, Buffer.from, String.prototype.slice and
// Uint8Array.prototype.indexOf. Then it answers an illegal move: it must be judged on that move.
const broken = () => {
  throw new Error('replaced by the agent');
};
JSON.parse = broken;
JSON.stringify = broken;
for (const name of ['log', 'error', 'warn', 'info', 'debug']) console[name] = broken;
Object.defineProperty(Object.prototype, 'toJSON', { value: () => ({ type: 'result', id: 2, observation: { move: 4, ms: 0 } }), configurable: true });
Buffer.from = broken;
String.prototype.slice = broken;
Uint8Array.prototype.indexOf = broken;

export default {
  name: 'replaces-json',
  chooseMove() {
    return 99;
  },
};
