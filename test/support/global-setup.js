// Builds the project once so suites spawn the real compiled gateway, and checks that the
// machine's PostgreSQL and Redis answer (CI starts them; see .ci/run).
const net = require('node:net');
const { ensureBuilt } = require('../../scripts/ensure-built');

function reachable(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port }, () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

module.exports = async () => {
  ensureBuilt();
  for (const [name, port] of [['PostgreSQL', 5432], ['Redis', 6379]]) {
    if (!(await reachable(port))) throw new Error(`${name} is not reachable on 127.0.0.1:${port}; start it (see .ci/run)`);
  }
};
