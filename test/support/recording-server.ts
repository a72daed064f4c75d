import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A second loopback server on its own origin that records every request it gets (method, path,
 * headers) and answers each with a JSON 200: it stands for a host a compromised queue reply names,
 * so a test can check that nothing, and no Authorization header, reached it.
 */
export class RecordingServer {
  readonly requests: Array<{ method: string; path: string; headers: IncomingHttpHeaders }> = [];
  url = '';
  private server!: Server;

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      this.requests.push({ method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers });
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ status: 'COMPLETED', images: [{ url: `${this.url}/files/stolen.jpeg` }] }));
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
