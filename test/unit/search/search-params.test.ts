import { describe, expect, it } from 'vitest';
import { SearchError } from '../../../shared/domain/search';
import { compile, compileError, resource, runSearch } from './fixtures';

describe('search parameters', () => {
  it('accepts the full set of parameters', () => {
    const search = compile({
      'text.en': 'dog',
      'text.de-DE': 'hund',
      fuzzy: 'true',
      fuzzyLevel: '1',
      staged: 'false',
      filter: 'version:1',
      'filter.query': 'key:exists',
      'filter.facets': 'version:range(1 to *)',
      facet: ['version', 'key as keys'],
    });
    expect(search.facets).toBeDefined();
  });

  it('leaves parameters that are not its own alone', () => {
    expect(() => compile({ expand: 'x', whatever: '' })).not.toThrow();
  });

  it('has no facets without a facet parameter', () => {
    expect(compile({ filter: 'version:1' }).facets).toEqual([]);
  });

  it('throws SearchError instances', () => {
    expect(() => compile({ filter: 'nope:1' })).toThrow(SearchError);
  });

  it('accepts staged either way and searches the one projection', () => {
    const docs = [resource({ key: 'one' }), resource({ key: 'two' })];
    expect(runSearch({ staged: 'true' }, docs).keys).toEqual(['one', 'two']);
    expect(runSearch({ staged: 'false' }, docs).keys).toEqual(['one', 'two']);
  });

  it('accepts text parameters for any locale of the pattern', () => {
    for (const name of ['text.en', 'text.xx', 'text.de-DE', 'text.pt-BR']) {
      expect(() => compile({ [name]: 'dog' })).not.toThrow();
    }
  });

  it.each(['text.english', 'text.EN', 'text.en-us', 'text.en_US', 'text.', 'text.e'])(
    'refuses the text parameter %s',
    (name) => {
      expect(compileError({ [name]: 'dog' })).toEqual({
        name: 'ParameterError',
        parameter: name,
        message: `Malformed parameter: ${name}: The locale must look like 'en' or 'en-US'.`,
      });
    },
  );

  it.each(['filter', 'filter.query', 'filter.facets', 'facet'])('refuses an empty %s', (name) => {
    expect(compileError({ [name]: ' ' })).toEqual({
      name: 'ParameterError',
      parameter: name,
      message: `Malformed parameter: ${name}: The expression is empty.`,
    });
  });

  it('checks every repeated expression, not just the first', () => {
    expect(compileError({ filter: ['version:1', 'version:"x"'] }).parameter).toBe('filter');
    expect(compileError({ facet: ['version', 'nope'] }).parameter).toBe('facet');
  });
});
