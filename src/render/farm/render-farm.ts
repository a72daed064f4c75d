/**
 * The render workers as a library (the package's `annot/render-farm` entry): a worker that takes
 * render units from the Redis queue, and the client a render hands its units to
 * (`renderScene(scene, { executor: await RenderFarmClient.open({ provider: 'fal' }) })`). Kept out
 * of the package root so that importing annot does not load BullMQ.
 */
export { RenderFarmClient, RenderWorkerUnitError, type RenderFarmOptions } from './farm-client.js';
export { DEFAULT_RENDER_QUEUE } from './farm-keys.js';
export { RenderMediaUnavailableError } from './media-handoff.js';
export { RenderQueueUnavailableError } from './redis-connection.js';
export { startRenderWorker, type RenderWorker, type RenderWorkerEvent, type RenderWorkerOptions } from './render-worker.js';
export { FARM_PROVIDERS, JOB_FORMAT, type FarmProvider, type UnitJobData, type UnitJobResult } from './unit-job.js';
