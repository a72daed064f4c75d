/**
 * The HTTP server of `annot serve` as a library: startServer on any op-logged store, or buildApp for
 * the fastify app alone. It keeps fastify out of programs that import only `annot`.
 *
 * @packageDocumentation
 * @module annot/server
 */

import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { OpLoggedStore } from '../oplog/op-logged-store.js';
import { AnnotationService } from '../service/annotation-service.js';
import { buildApp, type AppOptions } from './app.js';
import { afterNextPoll, drainOnClose } from './drain.js';

// The `annot/server` subpath entry: the app builder beside the server starter.
export { buildApp, type AppOptions } from './app.js';
// Types these declarations name that no other entry point exports.
export type { LiveOptions } from './routes/live.js';
export type { OpLogStreamOptions } from './routes/oplog-stream.js';

/** Options of startServer. */
export interface ServeOptions extends Omit<AppOptions, 'service'> {
  /** The store to serve; the server closes it when it stops. */
  readonly store: OpLoggedStore;
  /** The address to listen on (default 127.0.0.1). */
  readonly host?: string;
  /** 0 (the default) picks a free port. */
  readonly port?: number;
}

/** A server startServer started. */
export interface RunningServer {
  /** The fastify instance. */
  readonly app: FastifyInstance;
  /** `http://host:port`, with the port actually bound. */
  readonly url: string;
  /** Stops accepting connections, lets requests in flight finish, then closes the store. Idempotent. */
  close(): Promise<void>;
}

/**
 * Starts the HTTP server on a store (routes, OpenAPI, the timeline page); the server closes the store when it stops.
 */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const { store, host = '127.0.0.1', port = 0, ...appOptions } = options;
  // The store's own index for window reads (an .annot file's, sqlite-paged-reads.ts) is read while
  // the app is built, in slices, and is ready before the server answers: otherwise its first
  // requests are the ones that wait for it. A build given up leaves the reads to SQLite.
  const warming = store.warmUp?.().catch(() => false);
  const app = await buildApp({ ...appOptions, service: new AnnotationService(store) });
  const drain = drainOnClose(app.server);
  try {
    await warming;
    await app.listen({ host, port });
  } catch (error) {
    await app.close();
    throw error;
  }
  const address = app.server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    app,
    url: `http://${shownHost}:${address.port}`,
    close: () => {
      closing ??= (async () => {
        try {
          drain.beginDrain();
          // Connections that completed their handshake before the signal are accepted first.
          await afterNextPoll();
          await app.close();
        } finally {
          await store.close();
        }
      })();
      return closing;
    },
  };
}
