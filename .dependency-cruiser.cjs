/**
 * Import rules that CI enforces (`npm run lint`): no import cycles anywhere in src/, and no
 * import that runs upward through the layers written down in ARCHITECTURE.md. A layer may import
 * from its own layer and from any layer below it, never from one above.
 */
const LAYERS = [
  ['src/errors/', 'src/json/', 'src/time/', 'src/io/', 'src/text/'],
  ['src/schemas/', 'src/telemetry/'],
  ['src/model/'],
  ['src/digest/'],
  ['src/quality/'],
  // The store contract: the interface every backend implements, its paged read and its errors.
  ['src/store/store\\.ts$', 'src/store/read-page\\.ts$', 'src/store/errors\\.ts$'],
  ['src/oplog/'],
  // Backends (memory, mapping, sqlite, postgres) and replay, which builds a memory store.
  ['src/store/(?!store\\.ts$|read-page\\.ts$|errors\\.ts$)'],
  ['src/adapters/', 'src/tracks/'],
  ['src/render/'],
  ['src/service/'],
  ['src/processors/'],
  ['src/server/', 'src/mcp/', 'src/cli/'],
  ['src/index\\.ts$', 'commands/'],
];

const pathOf = (layer) => `^(${layer.join('|')})`;

const upwardRules = LAYERS.slice(0, -1).map((layer, index) => ({
  name: `layer-${index}-imports-upward`,
  comment: `${layer.join(', ')} may import only from its own layer and the layers below it (ARCHITECTURE.md)`,
  severity: 'error',
  from: { path: pathOf(layer) },
  to: { path: LAYERS.slice(index + 1).map(pathOf) },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import cycle makes load order matter and hides which module owns a concept.',
      severity: 'error',
      from: { path: '^(src|commands)/' },
      to: { circular: true },
    },
    ...upwardRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'], exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
