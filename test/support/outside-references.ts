import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/**
 * Finds places where a file of the repository refers to a path outside it: a clone must run with
 * nothing beside it (README's two commands). What counts as a reference:
 * - a relative module specifier (import, export from, import(), require()) or `new URL(x, import.meta.url)`,
 *   resolved against the file's folder;
 * - any string that starts with `./` or `../` (or is `..`), resolved against the file's folder;
 * - `join`/`resolve` of a base and literal segments: the base is the file's folder for
 *   `import.meta.dirname`, `__dirname` and `dirname(fileURLToPath(import.meta.url))`, otherwise the
 *   repository root (the working directory of every npm script);
 * - a relative literal handed to a file-system call or a `cwd` option, resolved against the root;
 * - an absolute path into this machine outside the system folders (such as a sibling checkout),
 *   anywhere in the text, comments included.
 */
export interface OutsideReference {
  file: string;
  line: number;
  reference: string;
}

/** Where the checked kinds of file live: everything but dependencies, build output and local data. */
export const SKIPPED_FOLDERS = new Set(['node_modules', '.git', '.local', 'cdk.out', 'coverage']);
export const SCRIPT_EXTENSIONS = new Set(['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs']);
const TEXT_EXTENSIONS = new Set(['.json', '.sh']);

/** Source, test, script, bench and configuration files, relative to the root (`.ci/` scripts included). */
export function checkedFiles(root: string, folder = root): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return SKIPPED_FOLDERS.has(entry.name) ? [] : checkedFiles(root, path);
    const extension = extname(entry.name);
    const checked =
      SCRIPT_EXTENSIONS.has(extension) || TEXT_EXTENSIONS.has(extension) || (extension === '' && relative(root, folder) === '.ci');
    return checked ? [relative(root, path)] : [];
  });
}

/** Every reference to a path outside `root` in the files `checkedFiles` lists. */
export function outsideReferencesIn(root: string): OutsideReference[] {
  return checkedFiles(root).flatMap((file) => outsideReferences(root, file, readFileSync(join(root, file), 'utf8')));
}

/** The references to paths outside `root` in one file's text (`file` relative to `root`). */
export function outsideReferences(root: string, file: string, text: string): OutsideReference[] {
  const found = [...absolutePathsOutside(text)];
  if (SCRIPT_EXTENSIONS.has(extname(file))) found.push(...relativePathsInScript(root, file, text));
  else found.push(...relativePathsInText(root, file, text));
  return found
    .map(({ at, reference }) => ({ file, line: text.slice(0, at).split('\n').length, reference }))
    .sort((a, b) => a.line - b.line);
}

interface Found {
  at: number;
  reference: string;
}

/** Top-level folders of any machine that a program may name: the system's, not a user's or a checkout's. */
export const SYSTEM_FOLDERS = new Set(['bin', 'boot', 'dev', 'etc', 'lib', 'lib32', 'lib64', 'media', 'mnt', 'opt', 'proc', 'run', 'sbin', 'srv', 'sys', 'tmp', 'usr', 'var']);

function* absolutePathsOutside(text: string): Generator<Found> {
  // A slash that starts a path: not inside a word, a URL, a template expression or a relative path.
  for (const match of text.matchAll(/(?<![\w.~:/$@}\]>)-])\/([A-Za-z_][\w.-]*)\/[\w.-]/g)) {
    const top = match[1]!;
    if (!SYSTEM_FOLDERS.has(top) && existsSync(`/${top}`)) yield { at: match.index, reference: match[0].slice(0, -2) };
  }
}

/** `..`, or a path that starts with `./` or `../`. */
const RELATIVE_PATH = /^\.\.?(\/|$)/;

function escapes(root: string, base: string, segments: string[]): boolean {
  const target = resolve(base, ...segments);
  const fromRoot = relative(root, target);
  return fromRoot.split(sep)[0] === '..' || isAbsolute(fromRoot);
}

/** Calls that take a file path (relative ones are resolved against the working directory, the root). */
const PATH_CALLS = new Set([
  'access', 'accessSync', 'copyFile', 'copyFileSync', 'cp', 'cpSync', 'createReadStream', 'createWriteStream', 'existsSync',
  'lstat', 'lstatSync', 'mkdir', 'mkdirSync', 'mkdtemp', 'mkdtempSync', 'open', 'openSync', 'opendir', 'readdir', 'readdirSync',
  'readFile', 'readFileSync', 'realpath', 'realpathSync', 'rm', 'rmSync', 'stat', 'statSync', 'writeFile', 'writeFileSync',
]);
const JOIN_CALLS = new Set(['join', 'resolve']);

function relativePathsInScript(root: string, file: string, text: string): Found[] {
  const folder = dirname(join(root, file));
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, scriptKind(file));
  const found: Found[] = [];
  const flag = (node: ts.Node, base: string, segments: string[]) => {
    if (escapes(root, base, segments)) found.push({ at: node.getStart(source), reference: node.getText(source) });
  };

  const visit = (node: ts.Node): void => {
    const literal = literalText(node);
    if (literal !== undefined && RELATIVE_PATH.test(literal)) flag(node, folder, [literal]);

    if (ts.isCallExpression(node)) {
      const name = calleeName(node.expression);
      const [first, ...rest] = node.arguments;
      if (name && JOIN_CALLS.has(name) && first) {
        const firstLiteral = literalText(first);
        const base = firstLiteral !== undefined ? root : isFileFolder(first) ? folder : root;
        const segments = [...(firstLiteral !== undefined ? [firstLiteral] : []), ...leadingLiterals(rest)];
        if (segments.length > 0) flag(node, base, segments);
      } else if (name && PATH_CALLS.has(name) && first) {
        const firstLiteral = literalText(first);
        if (firstLiteral !== undefined && !isAbsolute(firstLiteral)) flag(node, root, [firstLiteral]);
      }
    }
    if (ts.isPropertyAssignment(node) && node.name.getText(source) === 'cwd') {
      const value = literalText(node.initializer);
      if (value !== undefined && !isAbsolute(value)) flag(node, root, [value]);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The text of a string literal or of a template's fixed start (`../functions/${name}` → `../functions/`). */
function literalText(node: ts.Node): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) return node.head.text;
  return undefined;
}

function leadingLiterals(nodes: readonly ts.Expression[]): string[] {
  const segments: string[] = [];
  for (const node of nodes) {
    const text = ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) ? node.text : undefined;
    if (text === undefined) break;
    segments.push(text);
  }
  return segments;
}

/** `join(…)`, `path.join(…)`, `fs.readFileSync(…)`; not a method of anything else (`segments.join('/')`). */
function calleeName(callee: ts.Expression): string | undefined {
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && MODULE_NAMES.has(callee.expression.text)) {
    return callee.name.text;
  }
  return undefined;
}
const MODULE_NAMES = new Set(['path', 'posix', 'fs', 'fsp', 'promises']);

/** `import.meta.dirname`, `__dirname`, or `dirname(fileURLToPath(import.meta.url))`: the file's own folder. */
function isFileFolder(node: ts.Node): boolean {
  const text = node.getText().replace(/\s+/g, '');
  return text === 'import.meta.dirname' || text === '__dirname' || /^(path\.)?dirname\((url\.)?fileURLToPath\(import\.meta\.url\)\)$/.test(text);
}

/** Relative paths in shell scripts and JSON (package.json scripts, cdk.json), resolved against the file's folder and the root. */
function* relativePathsInText(root: string, file: string, text: string): Generator<Found> {
  const folder = dirname(join(root, file));
  for (const match of text.matchAll(/(?<![\w.$)}-])\.\.?\/[^\s'"`)]*/g)) {
    const path = match[0];
    if (escapes(root, folder, [path]) || escapes(root, root, [path])) yield { at: match.index, reference: path };
  }
}

function scriptKind(file: string): ts.ScriptKind {
  return ['.js', '.mjs', '.cjs'].includes(extname(file)) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
}
