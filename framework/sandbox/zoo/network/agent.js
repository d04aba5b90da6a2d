// Tries to connect to a TCP server on this machine; port.json (written by the test) names the port.
import { connect } from 'node:net';
import config from './port.json';

export default {
  name: 'network',
  chooseMove() {
    return new Promise((resolve, reject) => {
      const socket = connect(config.port, '127.0.0.1');
      socket.on('connect', () => {
        socket.end('hello from the sandbox');
        resolve({ move: 0, value: 1 });
      });
      socket.on('error', reject);
    });
  },
};
