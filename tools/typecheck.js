// `npm run typecheck`: the main project with the guide's pages (tools/check-project.ts: tsc with the pages'
// code in the same program) and the tests written with standard decorators (their own project,
// tests/decorators-standard, by tsc), both at once, one process each: on two cores the second costs no wall
// time. Exits 1 when either reports an error.
const { spawn } = require('child_process');

const tsc = require.resolve('typescript/bin/tsc');
const tsNode = require.resolve('ts-node/dist/bin');
const projects = {
  'tsconfig.json and the guide': [tsNode, '--swc', '--project', 'tsconfig.json', 'tools/check-project.ts'],
  'tests/decorators-standard': [tsc, '-p', 'tests/decorators-standard', '--noEmit'],
};

function check([project, args]) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (output += chunk));
    child.once('close', (code) => resolve({ project, code, output }));
  });
}

Promise.all(Object.entries(projects).map(check)).then((results) => {
  // each project's diagnostics together, in a fixed order, as the two tsc runs one after the other printed them
  for (const { output } of results) process.stdout.write(output);
  const failed = results.filter(({ code }) => code !== 0);
  for (const { project, code } of failed) process.stderr.write(`the type check of ${project} exited with ${code}\n`);
  process.exit(failed.length > 0 ? 1 : 0);
});
