// Preloaded (NODE_OPTIONS=--import) into a tool that must work offline: any attempt to open a network
// connection or resolve a name fails, is reported on stderr, and makes the process exit non-zero.
import dns from 'node:dns';
import net from 'node:net';

let attempts = 0;
const refuse = (what) => {
  attempts++;
  process.stderr.write(`no-network: refused ${what}\n`);
  return new Error(`network access is not allowed here (${what})`);
};

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  // net.connect() passes its normalized arguments as one array.
  const [options] = Array.isArray(args[0]) ? args[0] : args;
  // Local IPC (named pipes, Unix sockets) is not the network.
  if (typeof options === 'string' || (options && typeof options === 'object' && 'path' in options && options.path)) {
    return connect.apply(this, args);
  }
  const target = typeof options === 'object' ? `${options.host ?? ''}:${options.port ?? ''}` : String(options);
  process.nextTick(() => this.destroy(refuse(`a connection to ${target}`)));
  return this;
};
globalThis.fetch = async (input) => {
  throw refuse(`fetch ${typeof input === 'string' ? input : (input?.url ?? 'a request')}`);
};
dns.lookup = (hostname, ...rest) => {
  const callback = rest.at(-1);
  process.nextTick(() => callback(refuse(`a DNS lookup of ${hostname}`)));
};

process.on('exit', () => {
  if (attempts > 0) process.exitCode = 1;
});
