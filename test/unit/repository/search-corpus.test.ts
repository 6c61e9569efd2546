import { describe, expect, it } from 'vitest';
import { corpusResource, PAGE, pageWord, SEARCH_SHAPES } from '../../../bench/search-corpus';
import { isWithinEditDistance, letters } from '../../../shared/domain/search';
import { referenceSearch } from '../../support/search-reference';

describe('the bench corpus (bench/search-corpus.ts)', () => {
  const size = 2_000;
  const resources = Array.from({ length: size }, (_, index) => corpusResource(index, size));

  it('has each search shape match the resources it says, as the reference search counts them', () => {
    for (const shape of SEARCH_SHAPES) {
      const request = shape.request(size);
      const { total } = referenceSearch(resources, { ...request, page: { ...request.page, withTotal: true } });
      expect(total, shape.name).toBe(shape.matches(size));
    }
  });

  it('has page words no two of which are within 2 edits', () => {
    const words = Array.from({ length: size / PAGE }, (_, n) => letters(pageWord(n)));
    for (const [i, word] of words.entries()) {
      for (const other of words.slice(i + 1)) expect(isWithinEditDistance(word, other, 2)).toBe(false);
    }
  });
});
