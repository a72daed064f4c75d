// `annot serve` from its first request (issue 33): a 100,000-cue `.annot` file served by the real
// CLI (`node bin/run.js serve FILE`), and wrk with 32 connections reading the same 100-row window
// (`GET /annotations?start=50000&end=50100`) from the moment the URL line is printed:
// - the first SECONDS (10 s) after start-up, against the same server's steady state straight
//   after (target: p99 at most 2x the steady p99, and no request over 100 ms);
// - that steady state against a bare node:http server in its own process sending the very same
//   response bytes (target: at least 0.5x its requests/s, p99 under 10 ms).
// Each round starts a fresh server; ROUNDS rounds, medians reported. Beside the latencies, the
// server's own CPU time per request in each phase (from /proc), which a loaded machine moves little. Run it alone with
// `node bench/run.js serve-cold`. wrk must be installed (`apt-get install wrk`).
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, report } from './lib/harness.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = join(root, 'bin', 'run.js');
const ROWS = Number(process.env.ANNOT_BENCH_COLD_ROWS ?? 100_000);
const SECONDS = Number(process.env.ANNOT_BENCH_COLD_SECONDS ?? 10);
const ROUNDS = Number(process.env.ANNOT_BENCH_COLD_ROUNDS ?? 3);
const WINDOW = `/annotations?start=${ROWS / 2}&end=${ROWS / 2 + 100}`;

if (spawnSync('wrk', ['--version']).error) {
  console.log('serve-cold.bench: wrk is not installed (apt-get install wrk); skipped');
  process.exit(0);
}

const scratch = mkdtempSync(join(tmpdir(), 'annot-bench-serve-cold-'));
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');

/** An SRT file of `count` cues, one a second, 0.8 s each, so a 100-second window holds 100. */
async function writeSrt(path, count) {
  const stream = createWriteStream(path);
  const two = (n) => String(n).padStart(2, '0');
  const time = (ms) => `${two(Math.floor(ms / 3600000))}:${two(Math.floor(ms / 60000) % 60)}:${two(Math.floor(ms / 1000) % 60)},${String(ms % 1000).padStart(3, '0')}`;
  let chunk = [];
  for (let i = 0; i < count; i++) {
    chunk.push(`${i + 1}\n${time(i * 1000)} --> ${time(i * 1000 + 800)}\nLine ${i} of the generated talk\n\n`);
    if (chunk.length === 10_000) {
      if (!stream.write(chunk.join(''))) await once(stream, 'drain');
      chunk = [];
    }
  }
  stream.write(chunk.join(''));
  await new Promise((resolve) => stream.end(resolve));
}

/** Runs wrk for `seconds` on `url`: requests/s, p50, p99 and the slowest request (ms). */
async function wrk(url, seconds) {
  const child = spawn('wrk', ['-t2', '-c32', `-d${seconds}s`, '--latency', url]);
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.stderr.on('data', (chunk) => (out += chunk));
  await once(child, 'close');
  const ms = (value, unit) => Number(value) * { us: 0.001, ms: 1, s: 1000, m: 60_000 }[unit];
  const percentile = (p) => {
    const match = new RegExp(`^\\s+${p}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, 'm').exec(out);
    return match ? ms(match[1], match[2]) : NaN;
  };
  const latency = /^\s+Latency\s+\S+\s+\S+\s+([\d.]+)(us|ms|s|m)/m.exec(out);
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
  const requests = Number(/(\d+) requests in/.exec(out)?.[1]);
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  if (!Number.isFinite(rps) || latency === null) throw new Error(`wrk output not understood:\n${out}`);
  return { rps, requests, p50: percentile(50), p99: percentile(99), max: ms(latency[1], latency[2]), non2xx };
}

/** `annot serve FILE` started, resolved once it prints its URL line. */
async function startAnnotServe(file) {
  const child = spawn(process.execPath, [run, 'serve', file, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stderr.resume();
  child.stdout.setEncoding('utf8');
  const url = await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /annot serve: listening on (http:\/\/\S+)/.exec(out);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`annot serve exited with ${code} before its URL line`)));
  });
  /** The server's CPU time so far (user + system, ms), from /proc: a figure the machine's other load changes little. */
  const cpuMs = () => {
    const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  };
  const stop = async () => {
    child.kill('SIGTERM');
    if (child.exitCode === null) await once(child, 'exit');
  };
  return { url, stop, cpuMs };
}

/** A node:http server in its own process answering every request with `bytes`. */
async function sameBytesServer(bytes) {
  const file = join(scratch, 'window.json');
  writeFileSync(file, bytes);
  const child = spawn(process.execPath, ['-e', `
const body = require('node:fs').readFileSync(${JSON.stringify(file)});
const server = require('node:http').createServer((request, response) => {
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  response.end(body);
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [chunk] = await once(child.stdout, 'data');
  return { url: `http://127.0.0.1:${String(chunk).trim()}`, stop: () => { child.kill(); return once(child, 'exit'); } };
}

try {
  const srt = join(scratch, 'talk.srt');
  const file = join(scratch, 'talk.annot');
  await writeSrt(srt, ROWS);
  const converted = spawnSync(process.execPath, [run, 'convert', srt, file], { encoding: 'utf8' });
  if (converted.status !== 0) throw new Error(`annot convert failed: ${converted.stderr}`);
  rmSync(srt);

  const rounds = [];
  for (let round = 0; round < ROUNDS; round++) {
    const loadBefore = load();
    const server = await startAnnotServe(file);
    const cpu0 = server.cpuMs();
    const cold = await wrk(server.url + WINDOW, SECONDS);
    const cpu1 = server.cpuMs();
    const steady = await wrk(server.url + WINDOW, SECONDS);
    cold.cpuPerRequestUs = ((cpu1 - cpu0) * 1000) / cold.requests;
    steady.cpuPerRequestUs = ((server.cpuMs() - cpu1) * 1000) / steady.requests;
    const bytes = Buffer.from(await (await fetch(server.url + WINDOW)).arrayBuffer());
    await server.stop();
    const reference = await sameBytesServer(bytes);
    const same = await wrk(reference.url + WINDOW, SECONDS);
    await reference.stop();
    rounds.push({ cold, steady, same, rows: JSON.parse(bytes.toString('utf8')).length, bytes: bytes.length });
    console.log(
      `round ${round + 1}: first ${SECONDS} s ${Math.round(cold.rps)} req/s p99 ${cold.p99} ms max ${cold.max} ms; ` +
        `steady ${Math.round(steady.rps)} req/s p99 ${steady.p99} ms max ${steady.max} ms; server CPU per request ${Math.round(cold.cpuPerRequestUs)} then ${Math.round(steady.cpuPerRequestUs)} us; same bytes ${Math.round(same.rps)} req/s p99 ${same.p99} ms (load ${loadBefore})`,
    );
  }
  const m = (pick) => median(rounds.map(pick));
  const cold = { rps: m((r) => r.cold.rps), p99: m((r) => r.cold.p99), max: m((r) => r.cold.max), worstMax: Math.max(...rounds.map((r) => r.cold.max)) };
  const steady = { rps: m((r) => r.steady.rps), p99: m((r) => r.steady.p99), max: m((r) => r.steady.max) };
  const same = { rps: m((r) => r.same.rps), p99: m((r) => r.same.p99) };
  const non2xx = rounds.reduce((sum, r) => sum + r.cold.non2xx + r.steady.non2xx, 0);
  const common = { rows: rounds[0].rows, response_bytes: rounds[0].bytes, rounds: ROUNDS, wrk: `-t2 -c32, ${SECONDS}s each`, non_2xx: non2xx, load_average: load() };
  report({
    name: `serve first ${SECONDS} s after the URL line, ${rounds[0].rows}-row window over ${ROWS.toLocaleString('en-US')} (.annot), p99`,
    figure: cold.p99,
    unit: 'ms',
    reference: 'the same server right after (steady state) p99',
    referenceFigure: steady.p99,
    higherIsBetter: false,
    targetText: '<= 2x the steady p99, no request over 100 ms',
    met: cold.p99 <= 2 * steady.p99 && cold.worstMax <= 100,
    extra: {
      ...common,
      cold_rps: Math.round(cold.rps),
      cold_max_ms: cold.max,
      cold_worst_max_ms: cold.worstMax,
      steady_max_ms: steady.max,
      server_cpu_us_per_request_first: Math.round(m((r) => r.cold.cpuPerRequestUs)),
      server_cpu_us_per_request_steady: Math.round(m((r) => r.steady.cpuPerRequestUs)),
    },
  });
  report({
    name: `serve steady state, ${rounds[0].rows}-row window over ${ROWS.toLocaleString('en-US')} (.annot)`,
    figure: steady.rps,
    unit: 'req/s',
    reference: 'node:http server in its own process sending the same response bytes',
    referenceFigure: same.rps,
    higherIsBetter: true,
    targetText: '>= 0.5x, p99 < 10 ms',
    met: steady.rps >= 0.5 * same.rps && steady.p99 < 10,
    extra: { ...common, p99_ms: steady.p99, reference_p99_ms: same.p99 },
  });
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
