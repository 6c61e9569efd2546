import { describe, expect, it } from 'vitest';
import { abbreviate, leadingText } from '../../../shared/domain/abbreviate';

const EMOJI = '😀'; // two UTF-16 units

describe('leadingText', () => {
  it('keeps text as long as the length, and cuts longer text at it', () => {
    expect(leadingText('abc', 3)).toBe('abc');
    expect(leadingText('abcdef', 3)).toBe('abc');
    expect(leadingText('', 0)).toBe('');
    expect(leadingText('abc', 0)).toBe('');
  });

  it('never splits a surrogate pair: a cut inside one keeps one unit fewer', () => {
    expect(leadingText(`a${EMOJI}b`, 2)).toBe('a');
    expect(leadingText(`a${EMOJI}b`, 3)).toBe(`a${EMOJI}`);
    expect(leadingText(EMOJI.repeat(30), 57)).toBe(EMOJI.repeat(28));
    expect(leadingText(EMOJI.repeat(30), 57).isWellFormed()).toBe(true);
  });
});

describe('abbreviate', () => {
  it('keeps text up to the length and cuts longer text to it with ...', () => {
    expect(abbreviate('x'.repeat(60), 60)).toBe('x'.repeat(60));
    expect(abbreviate('x'.repeat(61), 60)).toBe(`${'x'.repeat(57)}...`);
  });

  it('cuts before a surrogate pair rather than through it, at any offset', () => {
    for (let prefix = 0; prefix < 4; prefix += 1) {
      const text = 'a'.repeat(prefix) + EMOJI.repeat(50);
      const shortened = abbreviate(text, 60);
      expect(shortened.isWellFormed()).toBe(true);
      expect(shortened.endsWith('...')).toBe(true);
      expect(shortened.length).toBeGreaterThanOrEqual(59);
      expect(shortened.length).toBeLessThanOrEqual(60);
      expect(text.startsWith(shortened.slice(0, -3))).toBe(true);
    }
  });
});
