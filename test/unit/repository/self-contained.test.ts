import { homedir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkedFiles, outsideReferences, outsideReferencesIn, SYSTEM_FOLDERS } from '../../support/outside-references';
import { markdownFiles, unresolvedMentions, unresolvedMentionsIn } from '../../support/unresolved-mentions';

/** A clone runs `npm install && npm start` and `npm test` with nothing beside it. */
const root = fileURLToPath(new URL('../../..', import.meta.url));

describe('the repository stands alone', () => {
  it('no source, test, script, bench or configuration file refers to a path outside the repository', () => {
    expect(outsideReferencesIn(root)).toEqual([]);
  });

  it('checks the kinds of file that run', () => {
    const files = checkedFiles(root);
    for (const file of ['local/start.ts', 'infra/app.ts', 'test/integration/api-client.ts', 'bench/run.ts', 'scripts/client-cli.ts', 'package.json', 'cdk.json', '.ci/run', 'eslint.config.js']) {
      expect(files).toContain(file);
    }
    expect(files.some((file) => file.startsWith('node_modules'))).toBe(false);
  });
});

describe('what counts as a reference outside the repository', () => {
  const referencesIn = (file: string, text: string) => outsideReferences(root, file, text).map(({ line, reference }) => ({ line, reference }));

  it('a file URL relative to the module that climbs above the root', () => {
    const text = "const body = readFileSync(new URL('../../../elsewhere/examples/draft.json', import.meta.url), 'utf8');";
    expect(referencesIn('test/integration/api-client.ts', text)).toEqual([{ line: 1, reference: "'../../../elsewhere/examples/draft.json'" }]);
    expect(referencesIn('test/integration/api-client.ts', text.replace('../../../elsewhere/examples', '../fixtures/examples'))).toEqual([]);
  });

  it('an import from outside', () => {
    expect(referencesIn('local/start.ts', "\nimport { x } from '../../elsewhere/x';")).toEqual([{ line: 2, reference: "'../../elsewhere/x'" }]);
    expect(referencesIn('local/start.ts', "const m = await import(`../../elsewhere/${name}.ts`);")).toHaveLength(1);
    expect(referencesIn('local/start.ts', "import { endpoints } from '../functions/endpoints';")).toEqual([]);
  });

  it('join or resolve from the file, the working directory or another base', () => {
    expect(referencesIn('infra/bundling.ts', "const up = join(import.meta.dirname, '..', '..', 'spec');")).toHaveLength(1);
    expect(referencesIn('infra/bundling.ts', "const root = join(import.meta.dirname, '..');")).toEqual([]);
    expect(referencesIn('test/unit/x.test.ts', "const up = path.resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');")).not.toEqual([]);
    expect(referencesIn('bench/run.ts', "const spec = resolve(process.cwd(), '..', 'spec');")).toHaveLength(1);
    expect(referencesIn('bench/run.ts', "const sibling = join(projectRoot, '..', 'spec');")).toHaveLength(1);
    expect(referencesIn('bench/run.ts', "const url = segments.join('/');")).toEqual([]);
  });

  it('a relative path handed to the file system or as a working directory', () => {
    expect(referencesIn('test/unit/x.test.ts', "readFileSync('../spec/examples/a.json')")).toHaveLength(1);
    expect(referencesIn('scripts/x.ts', "spawn('npm', ['test'], { cwd: '../other-checkout' })")).toHaveLength(1);
    expect(referencesIn('scripts/x.ts', "readFileSync('openapi.json')")).toEqual([]);
  });

  it('relative paths in package.json scripts, cdk.json and CI scripts', () => {
    expect(referencesIn('package.json', '{ "scripts": { "spec": "cat ../spec/examples/a.json" } }')).toHaveLength(1);
    expect(referencesIn('.ci/run', 'cp -r ../spec test/\n')).toHaveLength(1);
    expect(referencesIn('.ci/run', 'cd "$(dirname "$0")/.."\n')).toEqual([]);
  });

  it('strings that are not paths are left alone', () => {
    const text = "fc.constantFrom('a%2Fb', '%2f..%2f', '..', 'key='); const route = '/demo/resource'; const type = 'image/png';";
    expect(referencesIn('test/integration/reliability/fuzz.test.ts', text)).toEqual([]);
  });

  const top = homedir().split('/')[1] ?? '';
  it.skipIf(top === '' || SYSTEM_FOLDERS.has(top))('an absolute path into this machine, even in a comment', () => {
    expect(referencesIn('test/unit/x.ts', `// the examples are in ${homedir()}/spec/examples\n`)).toEqual([{ line: 1, reference: `/${top}` }]);
    expect(referencesIn('test/unit/x.ts', "const dir = mkdtempSync('/tmp/grs-'); const device = '/dev/null';")).toEqual([]);
  });
});

describe('every mention resolves in the repository', () => {
  it.skip('no document or comment names a document, table or tracker the repository does not carry, or a path it does not hold', () => {
    expect(unresolvedMentionsIn(root)).toEqual([]);
  });

  it('reads every Markdown file', () => {
    expect(markdownFiles(root)).toEqual(expect.arrayContaining(['README.md', 'docs/security.md', 'test/fixtures/README.md']));
  });
});

describe('what counts as a mention that does not resolve', () => {
  const mentionsIn = (file: string, text: string) => unresolvedMentions(root, file, text).map(({ line, mention }) => ({ line, mention }));

  it('an outside document by its role, a row of a table elsewhere, an issue by number', () => {
    const text = "`version` is a string, as the interface gives it.\nThe spec's example.\nSee row 4, and issue #14.\n";
    expect(mentionsIn('docs/complex-path.md', text)).toEqual([
      { line: 1, mention: 'the interface' },
      { line: 2, mention: 'The spec' },
      { line: 3, mention: 'row 4' },
      { line: 3, mention: 'issue #14' },
    ]);
    expect(mentionsIn('docs/complex-path.md', 'The store interface and its adapter; one row per step.')).toEqual([]);
  });

  it('in a script, only comments count: its strings are code', () => {
    expect(mentionsIn('shared/x.ts', "// The fields issue 14 asks for.\nconst a = 'the interface';\n/** As the spec says. */\n")).toEqual([
      { line: 1, mention: 'issue 14' },
      { line: 3, mention: 'the spec' },
    ]);
  });

  it('a path into the repository that names no file, from the root or the file\'s folder', () => {
    expect(mentionsIn('test/x.test.ts', '// See docs/api.md and examples/action-success.json.\n')).toEqual([
      { line: 1, mention: 'docs/api.md' },
      { line: 1, mention: 'examples/action-success.json' },
    ]);
    expect(mentionsIn('test/unit/x.test.ts', '// See docs/design.md, test/fixtures/examples/action-success.json, ../support/images.ts.\n')).toEqual([]);
    expect(mentionsIn('docs/x.md', 'A `Content-Type` of application/json, https://example.com/docs/none.md, functions/NAME/handler.ts.')).toEqual([]);
  });

  it('a Markdown link to a missing file; paths in a Markdown code block are a user\'s', () => {
    expect(mentionsIn('docs/x.md', '[design](design.md#paging), [gone](gone.md), [site](https://example.com/a.md)')).toEqual([{ line: 1, mention: 'gone.md' }]);
    expect(mentionsIn('docs/x.md', '```sh\nnpm run extension -- bind --static ./cart.json\n```\n')).toEqual([]);
  });
});
