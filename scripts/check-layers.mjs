// The house's layering rules, checked over server/src (run by `npm run lint`; docs/architecture.md):
//  1. nothing under core/, platform/ or mailbox/ imports from app/ (the composition root);
//  2. core/ imports nothing from platform/ or mailbox/;
//  3. SQL (a query-builder call or an `sql` template) stands only in repositories: files named
//     repository.ts or *-repository.ts, and the database layer itself (core/db/).
// `--report` prints the figures without failing.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

const SRC = 'server/src';
const SQL = /\.(selectFrom|selectNoFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto|with)\(|\bsql(<[^>]*>)?(`|\.(raw|ref|lit|join|id|table|val)\()/g;

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const isTestCode = (file) => file.endsWith('.test.ts') || file.split('/').includes('testing');
const isRepository = (file) => /(^|[/-])repository\.ts$/.test(file) || file.startsWith('core/db/');
const area = (file) => file.split('/')[0];

const problems = [];
let sqlOutside = 0;
let largest = { file: '', lines: 0 };
for (const path of sourceFiles(SRC)) {
  const file = relative(SRC, path);
  const text = readFileSync(path, 'utf8');
  const lines = text.split('\n').length;
  if (!isTestCode(file) && lines > largest.lines) largest = { file, lines };
  for (const match of text.matchAll(/from '(\.[^']+)'/g)) {
    const target = normalize(join(dirname(file), match[1]));
    if (area(file) !== 'app' && area(target) === 'app' && file !== 'main.ts') {
      problems.push(`${file}: imports ${target} (modules do not import the composition root)`);
    }
    if (area(file) === 'core' && ['platform', 'mailbox'].includes(area(target))) {
      problems.push(`${file}: imports ${target} (core/ knows no feature module)`);
    }
  }
  if (isTestCode(file) || isRepository(file)) continue;
  const calls = [...text.matchAll(SQL)].length;
  if (calls > 0) {
    sqlOutside += calls;
    problems.push(`${file}: ${calls} query-builder call(s) outside a repository`);
  }
}

if (process.argv.includes('--report')) {
  const fromApp = problems.filter((p) => p.includes('composition root')).length;
  console.log(`imports from app/ outside app/: ${fromApp}`);
  console.log(`query-builder calls outside repositories: ${sqlOutside}`);
  console.log(`largest source file: ${largest.file} (${largest.lines} lines)`);
}
for (const problem of problems) console.error(problem);
if (problems.length > 0 && !process.argv.includes('--report')) process.exit(1);
