import { describe, expect, it } from 'vitest';
import { srcsetUrls } from '../../../src/crawler/page/srcset.js';

describe('srcset parsing (HTML standard algorithm)', () => {
  it('splits candidates on commas followed by a descriptor or whitespace', () => {
    expect(srcsetUrls('a.jpg 1x, b.jpg 2x')).toEqual(['a.jpg', 'b.jpg']);
    expect(srcsetUrls('small.jpg 480w,large.jpg 1080w')).toEqual(['small.jpg', 'large.jpg']);
    expect(srcsetUrls('  \n one.png  ,\t two.png 2x ,, ')).toEqual(['one.png', 'two.png']);
  });

  it('keeps commas inside a URL unless they end it', () => {
    // A comma not followed by whitespace is part of the URL (image CDNs use them for options).
    expect(srcsetUrls('https://cdn.example/w_200,h_100/pic.jpg 1x, https://cdn.example/w_400,h_200/pic.jpg 2x')).toEqual([
      'https://cdn.example/w_200,h_100/pic.jpg',
      'https://cdn.example/w_400,h_200/pic.jpg',
    ]);
    // Trailing commas end the URL and are not part of it.
    expect(srcsetUrls('a.jpg,, b.jpg')).toEqual(['a.jpg', 'b.jpg']);
    expect(srcsetUrls('a.jpg,b.jpg')).toEqual(['a.jpg,b.jpg']);
  });

  it('does not end a candidate at a comma inside parentheses of a descriptor', () => {
    expect(srcsetUrls('a.jpg foo(1, 2), b.jpg 2x')).toEqual(['b.jpg']);
  });

  it('takes a URL without descriptor', () => {
    expect(srcsetUrls('only.webp')).toEqual(['only.webp']);
    expect(srcsetUrls('')).toEqual([]);
  });

  it('drops candidates a browser drops: invalid or conflicting descriptors', () => {
    expect(srcsetUrls('a.jpg 1x 2x, b.jpg 100w 1x, c.jpg 0w, d.jpg -1x, e.jpg 10h, f.jpg 100w 50h, g.jpg 1.5x')).toEqual(['f.jpg', 'g.jpg']);
  });
});
