import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../../shared/domain/errors';
import { resourceJsonSchema } from '../../shared/domain/resource-fields';
import { FieldCatalog } from '../../shared/domain/search/field-catalog';
import { compileProductSearch, productSearchFacetResults, type ProductSearch } from '../../shared/domain/search/product-search';
import { productSearchBodies } from '../support/product-search-bodies';
import { seedSearchProject, VOCABULARY, type SearchProject } from '../support/search-differential';
import { referenceSearch } from '../support/search-reference';
import { startInProcessGateway, type InProcessGateway } from './in-process';

/**
 * POST /{projectKey}/resource/search held to the reference evaluator, as searchApiPattern is
 * (search-differential.test.ts): generated Product Search bodies (test/support/product-search-bodies.ts)
 * over generated resources; each body parses to the SearchRequest the reference answers, or is
 * refused with 400 as the parser refuses it. Same status, total, ids (relevance included) and facets.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_129);
const fields = new FieldCatalog(resourceJsonSchema());

let gateway: InProcessGateway;
let project: SearchProject;

beforeAll(async () => {
  gateway = await startInProcessGateway();
  project = await seedSearchProject(gateway, 'product-search-differential', SEED);
}, 180_000);

afterAll(() => gateway?.stop());

describe('POST /{projectKey}/resource/search answers as the reference evaluator', () => {
  it('same status, total, ids and facets for generated bodies', async () => {
    const bodies = productSearchBodies({
      words: VOCABULARY,
      numberFields: ['version', 'objectTypeProperty.arrayOfIntExample', 'objectTypeProperty.arrayOfObjectType.integerExample', 'objectTypeProperty.arrayOfFloatExample'],
      numbers: fc.oneof(fc.integer({ min: -2, max: 21 }), fc.constantFrom(-1.5, 0.5, 1.5)),
      textFields: ['key', 'objectTypeProperty.arrayOfStringExample'],
      dateTimeFields: ['createdAt', 'lastModifiedAt'],
      instants: project.resources.map((resource) => Date.parse(resource.createdAt)),
      otherFields: ['objectTypeProperty.arrayOfObjectType', 'objectTypeProperty'],
    });
    // What the generated bodies exercised: a run of refusals or empty answers would prove little.
    const seen = { refused: 0, found: 0, facets: 0, resources: 0 };
    await fc.assert(
      fc.asyncProperty(bodies, async (body) => {
        let search: ProductSearch | undefined;
        try {
          search = compileProductSearch(body, fields);
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
        }
        const context = JSON.stringify(body);
        const observed = await gateway.send('POST', `/${project.key}/resource/search`, body);
        const answer = JSON.parse(observed.answer.body as string);
        if (!search) {
          expect(observed.answer.statusCode, context).toBe(400);
          expect(answer.errors[0].code, context).toBe('InvalidInput');
          seen.refused++;
          return;
        }
        const expected = referenceSearch(project.resources, search.request, { stems: project.stems });
        expect(observed.answer.statusCode, context).toBe(200);
        expect(answer.total, context).toBe(expected.total);
        expect(answer.results.map((result: { id: string }) => result.id), context).toEqual(expected.ids);
        expect(answer.facets, context).toEqual(productSearchFacetResults(search.request.facets, expected.facets));
        if (search.withResources) {
          const byId = new Map(project.resources.map((resource) => [resource.id, resource]));
          for (const result of answer.results) expect(result.resource, context).toEqual(byId.get(result.id));
          seen.resources++;
        }
        if (expected.total! > 0) seen.found++;
        if (search.request.facets.length > 0) seen.facets++;
      }),
      { numRuns: 250, seed: SEED },
    );
    console.log('Product Search differential:', JSON.stringify(seen));
    expect(seen.found).toBeGreaterThan(50);
    expect(seen.facets).toBeGreaterThan(50);
    expect(seen.resources).toBeGreaterThan(20);
    expect(seen.refused).toBeGreaterThan(0);
  }, 240_000);
});
