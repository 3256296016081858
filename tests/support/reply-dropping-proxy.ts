import { connect as tcpConnect, createServer, Server, Socket } from 'net';
import { AddressInfo } from 'net';

/**
 * A TCP proxy in front of a Redis server that loses replies on purpose. Armed with `dropReplies(marker, n)`, it
 * forwards the next `n` requests whose bytes hold `marker`, in any case (a function's name, say), then an ECHO of a token of
 * its own on the same connection; once Redis has answered that ECHO, so has run every request before it, it cuts
 * the client's connection without forwarding those replies. The client sees a connection lost after its
 * request was sent, and the request was applied: what a retry must not apply twice.
 */
export class ReplyDroppingProxy {
  /** How many connections were cut with a reply held back. */
  drops = 0;
  private armed: { marker: Buffer; left: number } | undefined;
  private readonly sockets = new Set<Socket>();
  private tokens = 0;

  private constructor(
    private readonly server: Server,
    private readonly target: { host: string; port: number },
  ) {}

  /** A proxy on a free port of 127.0.0.1 in front of the server of `url`. */
  static async start(url: string): Promise<ReplyDroppingProxy> {
    const { hostname, port } = new URL(url);
    const server = createServer();
    const proxy = new ReplyDroppingProxy(server, { host: hostname, port: Number(port) });
    server.on('connection', (client) => proxy.relay(client));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  /** The proxy's own url, for the client under test. */
  get url(): string {
    return `redis://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Loses the replies of the next `times` requests holding `marker`. */
  dropReplies(marker: string, times = 1): void {
    this.armed = { marker: Buffer.from(marker.toLowerCase()), left: times };
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private relay(client: Socket): void {
    const upstream = tcpConnect(this.target);
    this.sockets.add(client).add(upstream);
    let waitingFor: Buffer | undefined;
    let held = Buffer.alloc(0);
    const cut = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('data', (chunk) => {
      if (waitingFor) return; // the connection is about to be cut: nothing more reaches Redis
      upstream.write(chunk);
      const armed = this.armed;
      // any case: clients spell command names each their own way (EXEC, exec)
      if (!armed || armed.left === 0 || !Buffer.from(chunk.toString('latin1').toLowerCase(), 'latin1').includes(armed.marker)) return;
      armed.left--;
      const token = `rr-proxy-drop-${++this.tokens}-${process.pid}`;
      waitingFor = Buffer.from(token);
      upstream.write(`*2\r\n$4\r\nECHO\r\n$${token.length}\r\n${token}\r\n`);
    });
    upstream.on('data', (chunk) => {
      if (!waitingFor) {
        client.write(chunk);
        return;
      }
      held = Buffer.concat([held, chunk]);
      if (held.includes(waitingFor)) {
        this.drops++;
        cut();
      }
    });
    client.on('error', cut);
    upstream.on('error', cut);
    client.on('close', () => {
      this.sockets.delete(client);
      upstream.destroy();
    });
    upstream.on('close', () => {
      this.sockets.delete(upstream);
      client.destroy();
    });
  }
}
