// `annot --version` cold start against `node -e 0` (target: at most 2x; bin/run.js answers it without loading oclif), with a bare oclif CLI
// that has one empty command measured in the same run, so the figure shows what oclif itself costs.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { report } from './lib/harness.js';
import { medianWallMs } from './lib/processes.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const node = process.execPath;

const bare = mkdtempSync(join(tmpdir(), 'annot-bare-oclif-'));
try {
  writeFileSync(join(bare, 'package.json'), JSON.stringify({ name: 'bare', version: '1.0.0', type: 'module', oclif: { bin: 'bare', commands: './commands' } }));
  mkdirSync(join(bare, 'commands'));
  writeFileSync(join(bare, 'commands', 'hello.js'), "import { Command } from '@oclif/core';\nexport default class Hello extends Command { async run() {} }\n");
  writeFileSync(join(bare, 'run.js'), "import { execute } from '@oclif/core';\nawait execute({ dir: import.meta.url });\n");
  symlinkSync(join(root, 'node_modules'), join(bare, 'node_modules'));

  const baseline = medianWallMs(node, ['-e', '0']);
  const bareOclif = medianWallMs(node, [join(bare, 'run.js'), '--version']);
  const annot = medianWallMs(node, [join(root, 'bin', 'run.js'), '--version']);

  report({
    name: 'annot --version cold start',
    figure: annot,
    unit: 'ms',
    reference: 'node -e 0',
    referenceFigure: baseline,
    higherIsBetter: false,
    target: 2,
    targetText: '<= 2x node -e 0',
    extra: { bare_oclif_ms: bareOclif.toFixed(1), bare_oclif_ratio: (bareOclif / baseline).toFixed(2), annot_vs_bare_oclif: (annot / bareOclif).toFixed(2) },
  });
} finally {
  rmSync(bare, { recursive: true, force: true });
}
