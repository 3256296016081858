// Copies the Lua scripts next to the compiled script loader (dist/store/lua), which reads them at run time.
const fs = require('fs');
const path = require('path');

const from = path.join(__dirname, '..', 'src', 'store', 'lua');
const to = path.join(__dirname, '..', 'dist', 'store', 'lua');
fs.mkdirSync(to, { recursive: true });
for (const file of fs.readdirSync(from)) {
  if (file.endsWith('.lua')) fs.copyFileSync(path.join(from, file), path.join(to, file));
}
