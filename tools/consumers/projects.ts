/**
 * The consumer projects `npm run test:consumers` builds: each a fresh npm project that installs redis-record's
 * packed tarball and its tools from the npm registry, and runs the README example and a few checks
 * (tools/consumers/fixtures) the way an application built with that tool would.
 */

/** A source file of the project: the README example, or a file of fixtures/ by name (without .ts). */
export type App = 'readme' | 'checks' | 'esm-exports' | 'without-validator';

export interface Consumer {
  readonly name: string;
  /** What it shows. */
  readonly title: string;
  /** `"type": "module"` for an ES module project. */
  readonly esm?: boolean;
  /** Registry packages besides redis-record's tarball. */
  readonly dependencies: Record<string, string>;
  /** Extra `npm install` arguments. */
  readonly install?: readonly string[];
  /** Files written into the project, by path (tsconfig.json, .swcrc). */
  readonly files: Record<string, unknown>;
  /** The apps, written to src/<app>.ts and run in this order. */
  readonly apps: readonly App[];
  /** Commands run in the project folder after the install; `node_modules/.bin` is on PATH. */
  readonly build: ReadonlyArray<readonly string[]>;
  /**
   * The command that runs an app, and the folder it runs in relative to the project (default: the project). The
   * bundle runs from a folder holding only the bundle: no node_modules, no Lua file.
   */
  run(app: App): { command: readonly string[]; cwd?: string };
}

/**
 * What the README asks of tsconfig.json (Requirements), strict, with the declarations checked as well
 * (skipLibCheck off: node-redis's then need esModuleInterop, on in `tsc --init`'s defaults).
 */
const strictTypeScript = {
  target: 'ES2022',
  strict: true,
  esModuleInterop: true,
  skipLibCheck: false,
  noUnusedLocals: true,
  noImplicitOverride: true,
  forceConsistentCasingInFileNames: true,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  types: ['node'],
  rootDir: 'src',
  outDir: 'dist',
};

/** The README's tsconfig.json, for the tools that compile TypeScript file by file (esbuild, tsx). */
const readmeTypeScript = { compilerOptions: { experimentalDecorators: true, emitDecoratorMetadata: true, target: 'ES2022' } };

const node = (app: App) => ({ command: ['node', `dist/${app}.js`] });
const typescript59 = { typescript: '~5.9.0', '@types/node': '^20.19.0' };
/** The current major: typescript@latest is 7.x (the native compiler). */
const typescriptCurrent = { typescript: '^7.0.0', '@types/node': '^20.19.0' };
const classValidator = { 'class-validator': '^0.15.1' };

export const consumers: readonly Consumer[] = [
  {
    name: 'cjs-ts5.9',
    title: 'CommonJS, strict TypeScript 5.9 (moduleResolution node10), an isolated install (npm --install-strategy=linked)',
    dependencies: { ...typescript59, ...classValidator },
    install: ['--install-strategy=linked'],
    files: { 'tsconfig.json': { compilerOptions: { ...strictTypeScript, module: 'commonjs' } } },
    apps: ['readme', 'checks'],
    build: [['tsc', '-p', '.']],
    run: node,
  },
  {
    name: 'esm-ts5.9',
    title: 'ES module, TypeScript 5.9 with module nodenext',
    esm: true,
    dependencies: { ...typescript59, ...classValidator },
    // skipLibCheck on, as `tsc --init` sets it: TypeScript 5.9 takes a while over node-redis's declarations, which
    // cjs-ts5.9 and esm-ts7 check
    files: { 'tsconfig.json': { compilerOptions: { ...strictTypeScript, skipLibCheck: true, module: 'nodenext' } } },
    apps: ['readme', 'checks', 'esm-exports'],
    build: [['tsc', '-p', '.']],
    run: node,
  },
  {
    name: 'cjs-ts7',
    title: 'CommonJS, strict TypeScript 7 (the current major; its default moduleResolution, bundler)',
    dependencies: { ...typescriptCurrent, ...classValidator },
    files: { 'tsconfig.json': { compilerOptions: { ...strictTypeScript, module: 'commonjs' } } },
    apps: ['readme', 'checks'],
    build: [['tsc', '-p', '.']],
    run: node,
  },
  {
    name: 'esm-ts7',
    title: 'ES module, TypeScript 7 with module nodenext',
    esm: true,
    dependencies: { ...typescriptCurrent, ...classValidator },
    files: { 'tsconfig.json': { compilerOptions: { ...strictTypeScript, module: 'nodenext' } } },
    apps: ['readme', 'checks', 'esm-exports'],
    build: [['tsc', '-p', '.']],
    run: node,
  },
  {
    name: 'esbuild',
    title: 'bundled with esbuild (no decorator metadata), run from a folder with nothing but the bundle',
    dependencies: { esbuild: '^0.28.0', ...classValidator },
    files: { 'tsconfig.json': readmeTypeScript },
    apps: ['readme', 'checks'],
    build: [
      [
        'esbuild',
        'src/readme.ts',
        'src/checks.ts',
        '--bundle',
        '--platform=node',
        '--target=node20',
        '--log-level=warning',
        '--outdir=../esbuild-bundle',
      ],
    ],
    run: (app) => ({ command: ['node', `${app}.js`], cwd: '../esbuild-bundle' }),
  },
  {
    name: 'tsx',
    title: 'run with tsx (esbuild underneath: no decorator metadata)',
    dependencies: { tsx: '^4.20.0', ...classValidator },
    files: { 'tsconfig.json': readmeTypeScript },
    apps: ['readme', 'checks'],
    build: [],
    run: (app) => ({ command: ['tsx', `src/${app}.ts`] }),
  },
  {
    name: 'swc',
    title: 'compiled with swc (legacy decorators, decorator metadata)',
    dependencies: { '@swc/cli': '^0.8.0', '@swc/core': '^1.16.0', ...classValidator },
    files: {
      '.swcrc': {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
      },
    },
    apps: ['readme', 'checks'],
    build: [['swc', 'src', '-d', 'dist', '--strip-leading-paths', '--quiet']],
    run: node,
  },
  {
    name: 'no-class-validator',
    title: 'without class-validator: strict TypeScript 5.9, no validation',
    dependencies: typescript59,
    files: { 'tsconfig.json': { compilerOptions: { ...strictTypeScript, module: 'commonjs' } } },
    apps: ['without-validator'],
    build: [['tsc', '-p', '.']],
    run: node,
  },
];
