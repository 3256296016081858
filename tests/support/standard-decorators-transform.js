/**
 * Jest's transformer for the tests written with standard (TC39) decorators (tests/decorators-standard,
 * tests/types/standard): TypeScript's transpileModule with the settings of tests/decorators-standard/tsconfig.json,
 * without experimentalDecorators, each file compiled alone as tsconfig.jest.json does for the others. Not ts-jest:
 * ts-jest keeps one set of compiler options per Jest configuration, taken from whichever of its transform entries
 * compiles first, so a second tsconfig given to it is not reliably the one used. `npm run typecheck` type-checks
 * these files with that tsconfig.
 */
const crypto = require('crypto');
const path = require('path');
const ts = require('typescript');

const CONFIG = path.join(__dirname, '..', 'decorators-standard', 'tsconfig.json');
let options;

function compilerOptions() {
  if (!options) {
    const { config, error } = ts.readConfigFile(CONFIG, ts.sys.readFile);
    if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
    const parsed = ts.parseJsonConfigFileContent(config, ts.sys, path.dirname(CONFIG)).options;
    options = { ...parsed, noEmit: false, sourceMap: true, inlineSourceMap: false, declaration: false };
  }
  return options;
}

module.exports = {
  getCacheKey(source, filename) {
    const settings = JSON.stringify(compilerOptions());
    return crypto.createHash('sha256').update(ts.version).update(settings).update(filename).update(source).digest('hex');
  },
  process(source, filename) {
    const { outputText, sourceMapText } = ts.transpileModule(source, { compilerOptions: compilerOptions(), fileName: filename });
    return { code: outputText.replace(/\/\/# sourceMappingURL=.*\s*$/, ''), map: sourceMapText };
  },
};
