import { Flags } from '@oclif/core';
import { AnnotCommand } from '../../src/cli/base-command.js';
import { notice } from '../../src/cli/output.js';
import { oclifFlags } from '../../src/cli/oclif-flags.js';
import { exitNow } from '../../src/cli/process-guards.js';
import { REMOTE_CACHE_FLAGS } from '../../src/cli/render-flags.js';

export default class RenderWorker extends AnnotCommand {
  static override description =
    'Render the units that `render scene --queue` (and `render beat`/`render shot --queue`) put on the Redis queue, with this machine\'s own provider key (FAL_KEY in its environment: the operator of the workers pays), its own cache and the shared one. Any number of workers on any number of machines can share one queue; a unit two callers want is rendered once. SIGINT or SIGTERM lets the running units finish, then exits';
  static override examples = [
    '<%= config.bin %> render worker --concurrency 4 --remote-cache s3://team-renders/annot',
    'FAL_KEY=… <%= config.bin %> render worker --redis redis://queue-host:6379 --remote-cache s3://team-renders/annot',
  ];
  static override flags = {
    concurrency: Flags.integer({ description: 'units this worker renders at the same time', default: 1, min: 1 }),
    ...oclifFlags(REMOTE_CACHE_FLAGS),
    redis: Flags.string({ description: 'Redis URL of the render queue (default: ANNOT_REDIS_URL, else redis://127.0.0.1:6379)' }),
    'queue-name': Flags.string({ description: 'the render queue to take units from', default: 'annot-render' }),
    'lock-seconds': Flags.integer({ description: 'how long a unit stays with a worker that stopped answering (killed, cut off) before another worker takes it over', default: 20, min: 1 }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(RenderWorker);
    const [{ startRenderWorker }, { renderRedisUrl }, { redactUrlCredentials }] = await Promise.all([
      import('../../src/render/farm/render-worker.js'),
      import('../../src/render/farm/redis-connection.js'),
      import('../../src/text/secret-redaction.js'),
    ]);
    const remoteCache = flags['remote-cache']
      ? await (await import('../../src/render/remote/open-remote-cache.js')).openRemoteCache(flags['remote-cache'], { mode: flags['remote-cache-mode'] })
      : undefined;
    const worker = await startRenderWorker({
      concurrency: flags.concurrency,
      redisUrl: flags.redis,
      queueName: flags['queue-name'],
      remoteCache,
      lockSeconds: flags['lock-seconds'],
      onEvent: (event) => {
        switch (event.type) {
          case 'active':
            return notice(`annot render worker: ${event.unit} started (job ${event.jobId})`);
          case 'completed':
            return notice(`annot render worker: ${event.unit} done (${event.cacheHit ? 'from the cache' : 'rendered'}; media for the caller via ${event.mediaIn}) (job ${event.jobId})`);
          case 'failed':
            return notice(`annot render worker: ${event.unit} failed: ${event.error} (job ${event.jobId})`);
          case 'error':
            return notice(`annot render worker: ${event.error}`);
        }
      },
    });
    const shared = remoteCache ? `, shared cache ${remoteCache.url}${remoteCache.mode === 'read' ? ' (read-only)' : ''}` : ', no shared cache: media go to callers through Redis';
    notice(`annot render worker: ready, ${worker.name} taking units from queue "${worker.queueName}" at ${redactUrlCredentials(renderRedisUrl(flags.redis))} (concurrency ${flags.concurrency}${shared}); Ctrl-C stops`);

    const signal = await new Promise<NodeJS.Signals>((resolve) => {
      process.once('SIGINT', () => resolve('SIGINT'));
      process.once('SIGTERM', () => resolve('SIGTERM'));
    });
    // A second signal while units finish means "now"; an interrupted unit is taken over by another worker once its lock expires.
    const force = () => {
      notice('annot render worker: stopping immediately');
      exitNow(1);
    };
    process.once('SIGINT', force);
    process.once('SIGTERM', force);
    notice(`annot render worker: ${signal}: finishing the running units, taking no new ones`);
    await worker.close();
    remoteCache?.close();
    process.removeListener('SIGINT', force);
    process.removeListener('SIGTERM', force);
    notice('annot render worker: stopped');
  }
}
