/**
 * The layers of src/, lowest first (CONTRIBUTING.md, "Layers"). A folder may import its own files and those of
 * the layers before it, never one after it; folders sharing a layer do not import each other. No import cycle,
 * type-only imports included. `npm run lint:layers` checks it (`npm run lint` runs it, and CI runs that).
 */
const layers = [
  ['util'],
  ['errors'],
  ['codecs', 'keys'],
  ['model'],
  ['types'],
  ['mapper'],
  ['redis'],
  ['store'],
  ['query', 'schema'],
  ['integrity'],
  ['entity'],
  ['relations'],
  ['decorators'],
  ['connect'],
  ['entry'],
  ['cli'],
];

// the public entry points are src/index.ts and src/admin.ts, the layer called `entry` here, with the admin
// functions' own files in src/admin/ (the command-line tool imports src/admin.ts, not these)
const path = (folder) => (folder === 'entry' ? '^src/(index|admin)\\.ts$|^src/admin/' : `^src/${folder}/`);

const layerRules = layers.flatMap((rank, at) =>
  rank
    .map((folder) => ({ folder, above: [...layers.slice(at + 1).flat(), ...rank.filter((other) => other !== folder)] }))
    .filter(({ above }) => above.length > 0)
    .map(({ folder, above }) => ({
      name: `layer-${folder}`,
      comment: `${folder} imports only from the layers before it`,
      severity: 'error',
      from: { path: path(folder) },
      to: { path: above.map(path) },
    })),
);

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'no import cycle, type-only imports included',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'scripts-run-through-their-modules',
      comment: 'only src/store runs a Lua function: other layers call an entry script module (callScript); connect loads the library',
      severity: 'error',
      from: { pathNot: '^src/store/' },
      to: { path: '^src/store/(scripts|script|bound-script|function-library)\\.ts$' },
    },
    {
      name: 'cli-uses-the-public-api',
      comment: 'the command-line tool imports only the public entry points (and its own files)',
      severity: 'error',
      from: { path: '^src/cli/' },
      to: { path: '^src/', pathNot: ['^src/cli/', '^src/(index|admin)\\.ts$'] },
    },
    {
      name: 'no-unknown-folder',
      comment: 'every folder of src/ has its place in the layers above',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^src/', pathNot: [...layers.flat().map(path)] },
    },
    ...layerRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^src/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
