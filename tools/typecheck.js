// `npm run typecheck`: tsc over the main project and over the tests written with standard decorators (their own
// project, tests/decorators-standard), both at once, one process each: on two cores the second costs no wall
// time. Exits 1 when either reports an error.
const { spawn } = require('child_process');

const tsc = require.resolve('typescript/bin/tsc');
const projects = ['tsconfig.json', 'tests/decorators-standard'];

function check(project) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tsc, '-p', project, '--noEmit'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (output += chunk));
    child.once('close', (code) => resolve({ project, code, output }));
  });
}

Promise.all(projects.map(check)).then((results) => {
  // each project's diagnostics together, in a fixed order, as the two tsc runs one after the other printed them
  for (const { output } of results) process.stdout.write(output);
  const failed = results.filter(({ code }) => code !== 0);
  for (const { project, code } of failed) process.stderr.write(`tsc -p ${project} exited with ${code}\n`);
  process.exit(failed.length > 0 ? 1 : 0);
});
