import pg from 'pg';

/**
 * The pool a store makes. Its clients close their socket when connecting fails: pg leaves it
 * open after some refusals (a server that asks for a password the URL does not give fails inside
 * pg's SASL handler), and the server then holds it until its authentication timeout, so a
 * command that has already reported the failure would not exit for a minute.
 */
export function storePool(config: pg.PoolConfig): pg.Pool {
  return new pg.Pool({ ...config, Client: SocketClosingClient as unknown as pg.PoolConfig['Client'] });
}

class SocketClosingClient extends pg.Client {
  override connect(): Promise<pg.Client>;
  override connect(callback: (error: Error) => void): void;
  override connect(callback?: (error: Error) => void): Promise<pg.Client> | void {
    if (callback === undefined) {
      return super.connect().catch((error: unknown) => {
        this.closeSocket();
        throw error;
      });
    }
    super.connect((error: Error) => {
      if (error) this.closeSocket();
      callback(error);
    });
  }

  private closeSocket(): void {
    (this as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
  }
}
