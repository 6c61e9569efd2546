import { relative } from 'node:path';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { endpoints, functions } from '../../functions/endpoints';
import { functionEntry, lambdaEsbuildOptions, projectRoot } from '../../infra/bundling';

/** The files a function's bundle holds, from the repository and from packages (built as the stack builds it, not written). */
async function inputsOf(name: string): Promise<string[]> {
  const result = await build({ ...lambdaEsbuildOptions(functionEntry(name), `${name}.mjs`), write: false, metafile: true, logLevel: 'silent' });
  const output = Object.values(result.metafile.outputs)[0]!;
  return Object.entries(output.inputs)
    .filter(([, input]) => input.bytesInOutput > 0)
    .map(([file]) => relative(projectRoot, file));
}

/**
 * The functions that validate something with a zod schema: a body (drafts, update actions, the
 * complex path's document, a search request), the JSON query parameter of GET /{projectKey}/resource (`INTERFACE_OBJECT_TEST_TYPE`, contract/declaring.ts) or a stored
 * extension binding. Every other function carries no zod at all: schemas of the answers are the
 * document's (the schema catalogue), ids, keys and the stored JSON values are checked with
 * plain functions.
 */
const VALIDATING = [
  'create-resource',
  'put-resource',
  'overwrite-resource',
  'update-resource',
  'post-complex-path',
  'query-resources',
  'call-extension-action',
  // Product Search's request (POST /{projectKey}/resource/search).
  'search-resources',
  // A subscription's draft, and the stored subscriptions every subscription function and the consumer read.
  'create-subscription',
  'get-subscriptions',
  'delete-subscription',
  'deliver-changes',
];

describe('what each function bundles', () => {
  const bundled = new Map<string, string[]>();
  const packages = new Map<string, string[]>();
  beforeAll(async () => {
    for (const { name } of functions) {
      const inputs = await inputsOf(name);
      bundled.set(name, inputs.filter((file) => !file.includes('node_modules')));
      packages.set(name, inputs.filter((file) => file.includes('node_modules')));
    }
  });

  it('its own declaration and handler, never the list of endpoints nor another endpoint', () => {
    for (const [name, sources] of bundled) {
      const fromFunctions = sources.filter((file) => file.startsWith('functions/'));
      expect(fromFunctions.length, name).toBeGreaterThan(0);
      expect(fromFunctions.every((file) => file.startsWith(`functions/${name}/`)), `${name}: ${fromFunctions.join(', ')}`).toBe(true);
    }
  });

  it('neither the OpenAPI builder and its library nor the error and schema catalogues', () => {
    for (const [name, sources] of bundled) {
      expect(sources, name).not.toContain('shared/http/openapi.ts');
      expect(sources, name).not.toContain('shared/http/contract/error-responses.ts');
      expect(sources, name).not.toContain('shared/http/contract/schemas.ts');
      expect(packages.get(name)!.filter((file) => file.includes('node_modules/zod-openapi/')), name).toEqual([]);
    }
  });

  it('zod only in the functions that validate with a schema', () => {
    expect(VALIDATING.every((name) => packages.has(name)), 'VALIDATING names a function that does not exist').toBe(true);
    for (const [name, files] of packages) {
      const zod = files.some((file) => file.includes('node_modules/zod/'));
      expect(zod, `${name} ${zod ? 'carries' : 'does not carry'} zod`).toBe(VALIDATING.includes(name));
    }
  });

  it('the JSON body pipeline (parser, depth and text checks) only in the functions whose routes take JSON', () => {
    const takingJson = endpoints.filter((declaration) => declaration.routes.some((route) => route.body === 'json')).map(({ name }) => name);
    expect(takingJson.length).toBeGreaterThan(0);
    for (const [name, files] of packages) {
      const parser = files.some((file) => file.includes('node_modules/@middy/http-json-body-parser/'));
      expect(parser, `${name} ${parser ? 'carries' : 'does not carry'} the JSON body parser`).toBe(takingJson.includes(name));
      expect(bundled.get(name)!.includes('shared/http/middleware/json-body.ts'), name).toBe(takingJson.includes(name));
    }
  });

  it('no schema conversion to JSON Schema: the query engines read the generated resource-json-schema.json', () => {
    for (const [name, files] of packages) expect(files.filter((file) => file.includes('to-json-schema')), name).toEqual([]);
  });

  it('the Lambda client only where an extension is called; the S3 client where S3 is sent to (images, the index\'s failures) or an upload URL signed', () => {
    const carrying = (client: string) =>
      [...packages].filter(([, files]) => files.some((file) => file.includes(`node_modules/@aws-sdk/${client}/`))).map(([name]) => name).sort();
    expect(carrying('client-lambda')).toEqual(['call-extension-action']);
    expect(carrying('client-s3')).toEqual(['complete-image-upload', 'index-changes', 'start-image-upload', 'upload-image']);
    expect(carrying('s3-request-presigner')).toEqual(['start-image-upload']);
  });

  it("image-size's readers of the three image types taken, not its detector nor the other formats' readers", () => {
    const readers = (name: string) =>
      (packages.get(name) ?? [])
        .filter((file) => file.includes('node_modules/image-size/'))
        .map((file) => file.replace(/.*node_modules\/image-size\/dist\/esm\//, ''))
        .sort();
    for (const name of ['upload-image', 'complete-image-upload']) {
      expect(readers(name), name).toEqual(['types/gif.js', 'types/jpg.js', 'types/png.js', 'types/utils.js']);
    }
    // Starting an upload reads no image: it checks the declared type and signs a URL. (image-size's
    // utils leave their one `new TextDecoder()`, 23 bytes: the package does not declare itself free of side effects.)
    expect(readers('start-image-upload').filter((file) => /^types\/(jpg|png|gif)\.js$/.test(file))).toEqual([]);
  });

  it('none of the SDK parts replaced by stand-ins (infra/sdk-stand-ins/): credential chain, event-stream codec, mnemonist', () => {
    for (const [name, files] of packages) {
      const replaced = files.filter((file) => /node_modules\/(@aws-sdk\/credential-provider-(node|ini|sso|process|web-identity)|@smithy\/core\/dist-es\/submodules\/event-streams|mnemonist)\//.test(file));
      expect(replaced, name).toEqual([]);
    }
  });
});
