import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** How long a connection accepted before shutdown may take to send its first request once shutdown began. */
const FIRST_REQUEST_GRACE_MS = 10_000;

interface ConnectionState {
  /** Requests whose response has not finished yet. */
  active: number;
  /** Responses finished on this connection. */
  served: number;
}

/**
 * Graceful draining for a node HTTP server: once it closes, every request on a connection that was
 * already accepted is answered, even when its headers are still in the socket's buffer.
 *
 * Node's own `server.close()` destroys every "idle" connection, and a connection that was accepted
 * but whose first request has not been parsed yet (likely under CPU load: the signal and the
 * client's bytes arrive in the same turn) counts as idle, so its client saw a reset or, if the
 * headers were parsed a moment later, a refusal. Here only connections that already served a
 * request and wait idle for another (keep-alive) are closed at once; fresh ones get a grace period
 * to send their request; busy ones close when their last response has been sent.
 */
export function drainOnClose(server: Server): { beginDrain(): void } {
  const connections = new Map<Socket, ConnectionState>();
  let draining = false;

  server.on('connection', (socket: Socket) => {
    connections.set(socket, { active: 0, served: 0 });
    socket.once('close', () => connections.delete(socket));
  });
  server.on('request', (request, response) => {
    const state = connections.get(request.socket);
    if (!state) return;
    state.active++;
    response.once('close', () => {
      state.active--;
      state.served++;
      if (draining && state.active === 0) setImmediate(() => closeIfIdle(request.socket));
    });
  });

  const closeIfIdle = (socket: Socket): void => {
    const state = connections.get(socket);
    if (state && state.active === 0 && state.served > 0) socket.destroy();
  };

  // node's close() calls this; keep the connections that still owe an answer.
  server.closeIdleConnections = () => {
    for (const socket of connections.keys()) closeIfIdle(socket);
  };

  return {
    beginDrain() {
      if (draining) return;
      draining = true;
      const timer = setTimeout(() => {
        for (const [socket, state] of connections) if (state.active === 0) socket.destroy();
      }, FIRST_REQUEST_GRACE_MS);
      timer.unref();
      server.once('close', () => clearTimeout(timer));
    },
  };
}

/**
 * Resolves once the event loop has been through one more poll phase. A connection whose handshake
 * completed before a shutdown signal may still wait in the listen backlog: node accepts it in a
 * poll phase, and the signal handler can run in the very poll phase that would have, so closing
 * the listener at once resets it. A timer fires at the start of the next turn, and an immediate
 * queued from it runs after that turn's poll phase, when the backlog has been emptied.
 */
export function afterNextPoll(): Promise<void> {
  return new Promise((resolve) => setTimeout(() => setImmediate(resolve), 0));
}
