import { connect, createServer } from 'node:net';

/**
 * Whether something on this machine already serves `port`: it accepts a connection on loopback,
 * or the port cannot be bound on all interfaces. An engine started on such a port would fail to
 * bind while its readiness check is answered by the other program (another `npm start`'s engine).
 */
export async function portInUse(port: number): Promise<boolean> {
  return (await answersOnLoopback(port)) || !(await canBind(port));
}

function answersOnLoopback(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.setTimeout(1_000);
    const settle = (answered: boolean) => {
      socket.destroy();
      done(answered);
    };
    socket.once('connect', () => settle(true));
    socket.once('timeout', () => settle(false));
    socket.once('error', () => settle(false));
  });
}

function canBind(port: number): Promise<boolean> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' ? done(false) : fail(error)));
    probe.listen(port, () => probe.close(() => done(true)));
  });
}
