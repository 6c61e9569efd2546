import { connect, createServer, type Server } from 'node:net';
import { LocalStartError } from './local-start-error';

/**
 * Refuses to start the gateway or an engine on a port something already serves: an engine would
 * fail to bind while its readiness check is answered by the other program (another `npm start`'s).
 */
export async function ensurePortFree(port: number, what: string, setting: string, exitCode: number): Promise<void> {
  if (await portInUse(port)) throw new LocalStartError(`Port ${port} for ${what} is already in use (another npm start?). Stop what uses it, or set ${setting} to another port.`, exitCode);
}

/** Whether something on this machine already serves `port`: it accepts a connection on loopback, or the port cannot be bound on all interfaces. */
async function portInUse(port: number): Promise<boolean> {
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

/** Listens on `port` of `host`, or fails with what stops it (EADDRINUSE). */
export function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((done, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => {
      server.off('error', fail);
      done();
    });
  });
}

/** A port free on loopback now, for an engine given none. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await listen(probe, 0, '127.0.0.1');
  const { port } = probe.address() as { port: number };
  await new Promise((done) => probe.close(done));
  return port;
}
