import { Flags } from '@oclif/core';
import { AnnotCommand } from '../src/cli/base-command.js';
import { exitNow } from '../src/cli/process-guards.js';
import { notice } from '../src/cli/output.js';

export default class WorkerCommand extends AnnotCommand {
  static override description =
    'Run processor jobs from the Redis queue (put there by `annot process … --queue`), reporting progress and retrying failed jobs with backoff. Any number of workers on any number of machines can share one queue. SIGINT or SIGTERM lets the running jobs finish, then exits';
  static override examples = [
    '<%= config.bin %> worker --store /data/talk.annot',
    '<%= config.bin %> worker --store postgres://annot@db/annot?project=talks --concurrency 4 --redis redis://queue-host:6379',
  ];
  static override flags = {
    store: Flags.string({ description: 'the store for jobs that name none (a .annot file or a postgres:// URL); checked at start' }),
    concurrency: Flags.integer({ description: 'jobs this worker runs at the same time', default: 1, min: 1 }),
    redis: Flags.string({ description: 'Redis URL of the queue (default: ANNOT_REDIS_URL, else redis://127.0.0.1:6379)' }),
    'queue-name': Flags.string({ description: 'the queue to take jobs from', default: 'annot-processors' }),
    plugin: Flags.string({ description: 'an ES module whose default export is a processor (or a list), registered first (repeatable)', multiple: true, default: [] }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(WorkerCommand);
    const [{ startProcessorWorker }, { loadProcessorModules }, { redisUrlFrom }, { redactLocation }] = await Promise.all([
      import('../src/processors/worker.js'),
      import('../src/processors/plugins.js'),
      import('../src/processors/queue.js'),
      import('../src/service/open-service-store.js'),
    ]);
    await loadProcessorModules(flags.plugin);
    const worker = await startProcessorWorker({
      store: flags.store,
      concurrency: flags.concurrency,
      redisUrl: flags.redis,
      queueName: flags['queue-name'],
      onEvent: (event) => {
        switch (event.type) {
          case 'active':
            return notice(`annot worker: job ${event.jobId} (${event.processor}) started`);
          case 'completed':
            return notice(`annot worker: job ${event.jobId} (${event.processor}) completed: ${JSON.stringify(event.result)}`);
          case 'failed':
            return notice(`annot worker: job ${event.jobId} (${event.processor}) failed${event.willRetry ? ', will retry' : ' for good'}: ${event.error}`);
          case 'error':
            return notice(`annot worker: ${event.error}`);
        }
      },
    });
    notice(
      `annot worker: ready, taking jobs from queue "${worker.queueName}" at ${redactLocation(redisUrlFrom(flags.redis))} ` +
        `(concurrency ${flags.concurrency}${flags.store ? `, default store ${redactLocation(flags.store)}` : ''}); Ctrl-C stops`,
    );

    const signal = await new Promise<NodeJS.Signals>((resolve) => {
      process.once('SIGINT', () => resolve('SIGINT'));
      process.once('SIGTERM', () => resolve('SIGTERM'));
    });
    // A second signal while jobs finish means "now"; an interrupted job is taken again by another worker once its lock expires.
    const force = () => {
      notice('annot worker: stopping immediately');
      exitNow(1);
    };
    process.once('SIGINT', force);
    process.once('SIGTERM', force);
    notice(`annot worker: ${signal}: finishing the running jobs, taking no new ones`);
    await worker.close();
    process.removeListener('SIGINT', force);
    process.removeListener('SIGTERM', force);
    notice('annot worker: stopped');
  }
}
