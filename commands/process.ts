import { Args, Flags } from '@oclif/core';
import { AnnotCommand } from '../src/cli/base-command.js';
import { writeJson, writeLine } from '../src/cli/output.js';

export default class Process extends AnnotCommand {
  static override description =
    'Run a processor on a store (a .annot file or a postgres:// URL) and print its result as JSON; with --queue, put the run on the Redis queue for `annot worker` and print the job id';
  static override examples = [
    '<%= config.bin %> process --list',
    '<%= config.bin %> process low_confidence_review talk.annot --param threshold=0.4',
    '<%= config.bin %> process detect_density_change_points talk.annot --param bucket_seconds=0.5 --param min_delta=2',
    '<%= config.bin %> process low_confidence_review /data/talk.annot --queue',
    '<%= config.bin %> process --status 42',
  ];
  static override args = {
    name: Args.string({ description: 'the processor to run (annot process --list shows them)' }),
    store: Args.string({ description: 'the store: a .annot file or a postgres:// URL' }),
  };
  static override flags = {
    param: Flags.string({ char: 'p', description: 'a processor param as key=value (repeatable)', multiple: true, default: [] }),
    json: Flags.boolean({ description: 'one compact JSON line (--list and --status: JSON instead of text)', default: false }),
    list: Flags.boolean({ description: 'list the processors and their params', default: false }),
    status: Flags.string({ description: 'show a queued job: state, progress, result or the reason it failed' }),
    queue: Flags.boolean({ description: 'enqueue the run for a worker instead of running it here; prints the job id', default: false }),
    redis: Flags.string({ description: 'Redis URL of the queue (default: ANNOT_REDIS_URL, else redis://127.0.0.1:6379)' }),
    'queue-name': Flags.string({ description: 'the queue; workers must use the same one', default: 'annot-processors' }),
    attempts: Flags.integer({ description: 'with --queue: runs before the job fails for good', default: 3, min: 1 }),
    backoff: Flags.integer({ description: 'with --queue: milliseconds before the first retry, doubling after each', default: 1000, min: 0 }),
    actor: Flags.string({ description: 'who the op-log entries name (default processor:<name>)' }),
    plugin: Flags.string({ description: 'an ES module whose default export is a processor (or a list), registered first (repeatable)', multiple: true, default: [] }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Process);
    const location = { redisUrl: flags.redis, queueName: flags['queue-name'] };
    if (flags.status !== undefined) {
      const [{ getJobStatus }, { describeJobStatus }] = await Promise.all([import('../src/processors/queue.js'), import('../src/processors/describe.js')]);
      const status = await getJobStatus(flags.status, location);
      if (flags.json) writeJson(status);
      else writeLine(describeJobStatus(status));
      return;
    }
    const [registry, { parseParamArgs }, { loadProcessorModules }] = await Promise.all([
      import('../src/processors/registry.js'),
      import('../src/processors/params.js'),
      import('../src/processors/plugins.js'),
    ]);
    await loadProcessorModules(flags.plugin);
    if (flags.list) {
      const { describeProcessors } = await import('../src/processors/describe.js');
      if (flags.json) writeJson(registry.listProcessors());
      else writeLine(describeProcessors(registry.listProcessors()));
      return;
    }
    if (args.name === undefined || args.store === undefined) {
      this.error('name a processor and a store (annot process <name> <store>), or use --list or --status <job id>', { exit: 2 });
    }
    const params = parseParamArgs(args.name, flags.param);

    if (flags.queue) {
      const { enqueueProcessorJob } = await import('../src/processors/queue.js');
      const jobId = await enqueueProcessorJob(
        { processor: args.name, store: args.store, params, actor: flags.actor },
        { ...location, attempts: flags.attempts, backoffMs: flags.backoff },
      );
      if (flags.json) writeJson({ job_id: jobId, queue: flags['queue-name'] });
      else writeLine(jobId);
      return;
    }

    const [{ openServiceStore }, { AnnotationService }] = await Promise.all([
      import('../src/service/open-service-store.js'),
      import('../src/service/annotation-service.js'),
    ]);
    registry.resolveProcessorParams(args.name, params);
    const store = await openServiceStore(args.store);
    try {
      const result = await registry.runProcessor(args.name, new AnnotationService(store), params, { actor: flags.actor });
      writeJson(result, !flags.json);
    } finally {
      await store.close();
    }
  }
}
