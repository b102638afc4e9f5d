/**
 * The connections of the server `listen()` opens, and how a stop closes them (docs/reliability.md,
 * "Stop sequence"): every request that reached the process is answered before its socket closes.
 *
 * Node's own `server.close()` (Node 19+) destroys at once every connection with no request in
 * progress, and closing the listener resets the connections the kernel accepted but node has not
 * taken yet: among them, connections whose request is in the socket's buffer, unread. Their
 * clients see a reset. Here the listener closes after those are taken and read, and each socket
 * closes by what it is doing. http-terminator, stoppable and @godaddy/terminus (which uses
 * stoppable) destroy or end those same sockets at once, hence this file (docs/reliability.md).
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** Once the listener closed, how long a connection that has sent nothing yet has to send its request. */
export const FRESH_CONNECTION_WINDOW_MS = 1_000;

interface Connection {
  /** Answers not yet finished, in the order node writes them (pipelined requests queue). */
  pending: ServerResponse[];
  /** Requests received on this connection. */
  requests: number;
  /**
   * `socket.bytesRead` when its last request was read whole and answered: more bytes since then
   * are a request arriving (a partial header block that node has not emitted yet).
   */
  rest: number;
}

/** Two turns of the event loop: at least one poll in between, where pending accepts and reads happen. */
const pollTurn = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));

export class ServerConnections {
  private readonly connections = new Map<Socket, Connection>();
  private leaving = false;
  private stopping = false;
  /** Connections taken so far. */
  private accepted = 0;

  constructor(readonly server: Server) {
    server.on('connection', (socket: Socket) => {
      this.accepted++;
      this.connections.set(socket, { pending: [], requests: 0, rest: 0 });
      socket.once('close', () => this.connections.delete(socket));
    });
  }

  /** Whether `res` is answered on one of these connections (which then decide its `Connection` header). */
  owns(res: ServerResponse): boolean {
    return this.connections.has(res.socket as Socket);
  }

  /** Called for every request, before the app. */
  track(req: IncomingMessage, res: ServerResponse): void {
    const socket = req.socket as Socket;
    const connection = this.connections.get(socket);
    if (!connection) return;
    connection.requests++;
    if (this.leaving) {
      // Only the last answer of a connection says close: node drops the answers queued behind
      // one that does, so a pipelined request would go unanswered.
      for (const earlier of connection.pending) if (!earlier.headersSent) earlier.removeHeader('Connection');
      res.setHeader('Connection', 'close');
    }
    connection.pending.push(res);
    res.once('close', () => {
      connection.pending.splice(connection.pending.indexOf(res), 1);
      const settled = () => {
        connection.rest = socket.bytesRead;
        if (this.stopping) void pollTurn().then(() => this.closeIfAtRest(socket, connection));
      };
      // An answer may finish before its body was read (node then reads and drops the rest).
      if (req.complete) settled();
      else req.once('end', settled);
    });
  }

  /** Shutdown began: the last answer of each connection tells its client to close it. */
  leave(): void {
    this.leaving = true;
    for (const { pending } of this.connections.values()) {
      const last = pending.at(-1);
      if (last && !last.headersSent) last.setHeader('Connection', 'close');
    }
  }

  /**
   * Closes the listener once the connections the kernel already accepted are taken and their
   * requests read; then each connection: one at rest between requests at once, one that has sent
   * nothing after FRESH_CONNECTION_WINDOW_MS, one with a request after its answer. Resolves when
   * every connection is closed; those left `graceMs` after the call are destroyed.
   */
  async stop(graceMs: number): Promise<void> {
    this.leave();
    const deadline = performance.now() + graceMs;
    // Node (libuv) takes one connection of the kernel's backlog per turn of the event loop, and
    // closing the listener resets those still waiting: it closes after a turn that took none.
    // Turns are slow on a busy process (20 waiting connections took over 200 ms on a loaded
    // machine), so only the grace bounds this; connections taken meanwhile are refused (503).
    for (let seen = -1; seen !== this.accepted && performance.now() < deadline; ) {
      seen = this.accepted;
      await pollTurn();
    }
    const closed = new Promise<void>((resolve) => closeListener(this.server, resolve));
    this.stopping = true;
    const left = Math.max(0, deadline - performance.now());
    const timers = [setTimeout(() => this.destroyAll(), left)];
    for (const [socket, connection] of this.connections) {
      if (connection.requests > 0) this.closeIfAtRest(socket, connection);
      // After a poll turn: a process starved of CPU runs its due timers before it reads what
      // arrived meanwhile, and a request sent within the window would meet the close unread.
      else timers.push(setTimeout(() => void pollTurn().then(() => this.closeIfAtRest(socket, connection)), Math.min(FRESH_CONNECTION_WINDOW_MS, left)));
    }
    await closed;
    for (const timer of timers) clearTimeout(timer);
  }

  destroyAll(): void {
    for (const socket of this.connections.keys()) socket.destroy();
  }

  private closeIfAtRest(socket: Socket, connection: Connection): void {
    if (connection.pending.length === 0 && socket.bytesRead === connection.rest) socket.destroy();
  }
}

/**
 * Closes the listener only: node's `close()` would first destroy every connection without a
 * request in progress (`closeIdleConnections`), including one whose request is still unread.
 * `done` runs once every connection has closed too.
 */
function closeListener(server: Server, done: () => void): void {
  server.closeIdleConnections = () => undefined;
  server.close(() => done());
  delete (server as Partial<Server>).closeIdleConnections;
}
