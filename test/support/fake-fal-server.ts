// The fake fal server lives in src/render/testing/ so that the build emits it for the benchmarks;
// the tests import it from here.
export * from '../../src/render/testing/fake-fal-server.js';
