// `npm run bench`: runs every bench/*.bench.js (or those named on the command line) in its own
// process, one after another so they do not compete for the two cores, and rewrites
// bench/RESULTS.md with the figures of this run and today's date.
import { spawnSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.js'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.includes(w)))
  .sort();

const results = [];
let failed = 0;
for (const file of files) {
  console.log(`\n== ${file}`);
  const run = spawnSync(process.execPath, ['--expose-gc', join(here, file)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 << 20 });
  for (const line of run.stdout.split('\n')) {
    if (line.startsWith('BENCH ')) results.push({ file, ...JSON.parse(line.slice(6)) });
    else if (line) console.log(line);
  }
  if (run.status !== 0) {
    failed++;
    console.log(`${file} exited with ${run.status}`);
  }
}

if (wanted.length === 0) {
  const date = new Date().toISOString().slice(0, 10);
  const rows = results.map((r) =>
    `| ${r.name} | ${r.figure} ${r.unit} | ${r.reference ?? ''} | ${r.reference_figure ?? ''} | ${r.ratio ?? ''} | ${r.target ?? ''} | ${r.pass === null ? '' : r.pass ? 'pass' : 'MISS'} |`,
  );
  const extras = results.filter((r) => r.extra).map((r) => `- ${r.name}: ${Object.entries(r.extra).map(([k, v]) => `${k}=${v}`).join(', ')}`);
  writeFileSync(
    join(here, 'RESULTS.md'),
    `# Benchmark results\n\nLatest full run of \`npm run bench\`: ${date}, on this project's 2-core machine (Node ${process.version}).\n` +
      'Each figure is measured beside its reference in the same run; the ratio is figure / reference.\n\n' +
      '| benchmark | figure | reference | reference figure | ratio | target | verdict |\n|---|---|---|---|---|---|---|\n' +
      rows.join('\n') + '\n' + (extras.length ? `\nDetails:\n${extras.join('\n')}\n` : ''),
  );
  console.log(`\nwrote bench/RESULTS.md (${results.length} figures)`);
}
process.exit(failed ? 1 : 0);
