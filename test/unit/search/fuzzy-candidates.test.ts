import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isWithinEditDistance, letters } from '../../../shared/domain/search';
import { digitsOf, prefixUpperBound, signatureOf } from '../../../shared/store/postgres/search-schema';

/** Bits in which two signatures differ, as the engine's bit_count((a # b)::bit(64)) counts them. */
const differingBits = (a: string, b: string) => [...(BigInt.asUintN(64, BigInt(a) ^ BigInt(b))).toString(2)].filter((bit) => bit === '1').length;

describe('the characters a word holds, as the fuzzy dictionary prefilters by them (signatureOf)', () => {
  it('never leaves out a word within the edits: at most two differing bits per edit', () => {
    // Few characters and short words: many pairs are within an edit or two.
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'ü', '0', '😀'), minLength: 0, maxLength: 5 });
    let near = 0;
    fc.assert(
      fc.property(word, word, fc.integer({ min: 1, max: 2 }), (a, b, edits) => {
        if (!isWithinEditDistance(letters(a), letters(b), edits)) return;
        near++;
        expect(differingBits(signatureOf(a), signatureOf(b))).toBeLessThanOrEqual(2 * edits);
      }),
      { numRuns: 2_000 },
    );
    expect(near).toBeGreaterThan(200);
  });

  it('tells words of other characters apart', () => {
    expect(differingBits(signatureOf('dog'), signatureOf('dgo'))).toBe(0);
    expect(differingBits(signatureOf('dog'), signatureOf('cat'))).toBe(6);
    expect(signatureOf('zzz9')).toMatch(/^-?\d+$/);
  });
});

describe('the digits a word holds, as the fuzzy dictionary reads only words near the term in them (digitsOf)', () => {
  it('never leaves out a word within the edits: at most one digit more or less per edit', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'b', '0', '1', '٣', '😀'), minLength: 0, maxLength: 5 });
    let near = 0;
    fc.assert(
      fc.property(word, word, fc.integer({ min: 1, max: 2 }), (a, b, edits) => {
        if (!isWithinEditDistance(letters(a), letters(b), edits)) return;
        near++;
        expect(Math.abs(digitsOf(a) - digitsOf(b))).toBeLessThanOrEqual(edits);
      }),
      { numRuns: 2_000 },
    );
    expect(near).toBeGreaterThan(200);
  });

  it('counts digits of any script, as the tokenizer keeps them', () => {
    expect(digitsOf('k0000123')).toBe(7);
    expect(digitsOf('dog')).toBe(0);
    expect(digitsOf('٣٤x')).toBe(2);
  });
});

describe('the upper bound of a prefix range (prefixUpperBound)', () => {
  it('is above every word starting with the prefix and below every other word after it', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'z', '\u{10FFFF}', '\uD7FF', '😀'), maxLength: 4 });
    fc.assert(
      fc.property(word, word, (prefix, other) => {
        const upper = prefixUpperBound(prefix);
        const byCodePoint = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));
        if (other.startsWith(prefix)) expect(upper === undefined || byCodePoint(other, upper) < 0).toBe(true);
        else if (byCodePoint(other, prefix) > 0) expect(upper !== undefined && byCodePoint(other, upper) >= 0).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });
});
