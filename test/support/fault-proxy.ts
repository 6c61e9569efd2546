import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy between the handlers and DynamoDB Local that misbehaves on demand, as a network or
 * an overloaded endpoint does. Each fault applies to the requests whose operation (the
 * `X-Amz-Target` header, e.g. `TransactWriteItems`) matches, `times` times or until changed:
 *   - delay:        the answer comes `ms` late;
 *   - reset-before: the connection is reset before the request reaches DynamoDB (nothing applied);
 *   - reset-after:  the request is applied, its answer dropped and the connection reset (a lost answer);
 *   - stall:        the status line, headers and half the body come, then nothing more;
 *   - black-hole:   the request is swallowed, nothing ever answers.
 * The SDK sends one request at a time per connection (HTTP/1.1, no pipelining), so an answer
 * belongs to the last request seen on its connection.
 */
export type FaultKind = 'delay' | 'reset-before' | 'reset-after' | 'stall' | 'black-hole';

export interface Fault {
  kind: FaultKind;
  /** Only requests of these operations (default: all). */
  operations?: readonly string[];
  /** How many matching requests it hits (default: all). */
  times?: number;
  /** For `delay`. */
  ms?: number;
}

export class FaultProxy {
  private fault: (Fault & { left: number }) | undefined;
  /** The operations of the requests the proxy saw, in order, with the fault each met. */
  readonly seen: { operation: string; fault?: FaultKind }[] = [];
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(upstream: string): Promise<FaultProxy> {
    const { hostname, port } = new URL(upstream);
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const proxy = new FaultProxy(server, `http://127.0.0.1:${(server.address() as { port: number }).port}`);
    server.on('connection', (client) => proxy.relay(client, hostname, Number(port)));
    return proxy;
  }

  /** Sets the fault from now on (none: a faithful proxy). */
  set(fault: Fault | undefined): void {
    this.fault = fault && { ...fault, left: fault.times ?? Infinity };
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }

  /** The fault this request meets, if any (and counts it). */
  private faultFor(operation: string): FaultKind | undefined {
    const fault = this.fault;
    const hit = fault && fault.left > 0 && (!fault.operations || fault.operations.includes(operation));
    if (hit) fault.left--;
    this.seen.push({ operation, ...(hit ? { fault: fault.kind } : {}) });
    return hit ? fault.kind : undefined;
  }

  private relay(client: Socket, host: string, port: number): void {
    const upstream = connect(port, host);
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    // The fault of the request in flight on this connection (its answer's fate).
    let current: FaultKind | undefined;
    let delay = 0;
    client.on('data', (chunk: Buffer) => {
      const target = /^x-amz-target:\s*DynamoDB_\d+\.(\w+)/im.exec(chunk.toString('latin1'));
      if (target) {
        current = this.faultFor(target[1]!);
        delay = this.fault?.ms ?? 0;
      }
      if (current === 'reset-before') return void client.resetAndDestroy();
      if (current === 'black-hole') return;
      upstream.write(chunk);
    });
    let stalled = false;
    upstream.on('data', (chunk: Buffer) => {
      if (current === 'reset-after') return void client.resetAndDestroy();
      if (current === 'stall') {
        // Headers and the first half of the body, then silence on this connection.
        const bodyStart = chunk.indexOf('\r\n\r\n') + 4;
        if (!stalled) client.write(chunk.subarray(0, bodyStart + Math.floor((chunk.length - bodyStart) / 2)));
        stalled = true;
        return;
      }
      if (current === 'delay') setTimeout(() => client.write(chunk), delay);
      else client.write(chunk);
    });
  }
}
