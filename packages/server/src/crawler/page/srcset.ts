/**
 * The URLs of a `srcset` attribute, by the HTML standard's "parse a srcset attribute" algorithm
 * (https://html.spec.whatwg.org/multipage/images.html#parsing-a-srcset-attribute): candidates
 * are separated by commas, each a URL then optional descriptors; a comma inside a URL counts
 * as part of it unless it ends the URL (`a.jpg,b.jpg` is one URL, `a.jpg, b.jpg` two), and a
 * comma inside parentheses in the descriptors does not end a candidate. A candidate whose
 * descriptors are invalid is dropped, as a browser drops it: it is never loaded.
 */

const SPACE = /[\t\n\f\r ]/;

function isSpace(c: string | undefined): boolean {
  return c !== undefined && SPACE.test(c);
}

/** The candidate URLs of `srcset`, in order, as written (not resolved). */
export function srcsetUrls(input: string): string[] {
  const out: string[] = [];
  const n = input.length;
  let pos = 0;
  for (;;) {
    // Splitting loop: skip whitespace and commas between candidates.
    while (pos < n && (isSpace(input[pos]) || input[pos] === ',')) pos++;
    if (pos >= n) return out;
    const start = pos;
    while (pos < n && !isSpace(input[pos])) pos++;
    let url = input.slice(start, pos);
    const descriptors: string[] = [];
    if (url.endsWith(',')) {
      url = url.replace(/,+$/, '');
    } else {
      pos = tokenizeDescriptors(input, pos, descriptors);
    }
    if (url && validDescriptors(descriptors)) out.push(url);
  }
}

/** Collects the descriptors after a URL; returns the position after the candidate. */
function tokenizeDescriptors(input: string, pos: number, descriptors: string[]): number {
  const n = input.length;
  while (pos < n && isSpace(input[pos])) pos++;
  let current = '';
  let state: 'in' | 'parens' | 'after' = 'in';
  for (;;) {
    const c = input[pos];
    if (state === 'in') {
      if (isSpace(c)) {
        if (current) descriptors.push(current);
        current = '';
        state = 'after';
      } else if (c === ',') {
        if (current) descriptors.push(current);
        return pos + 1;
      } else if (c === '(') {
        current += c;
        state = 'parens';
      } else if (c === undefined) {
        if (current) descriptors.push(current);
        return pos;
      } else current += c;
    } else if (state === 'parens') {
      if (c === ')') {
        current += c;
        state = 'in';
      } else if (c === undefined) {
        descriptors.push(current);
        return pos;
      } else current += c;
    } else if (c === undefined) {
      return pos;
    } else if (!isSpace(c)) {
      // Reconsume this character as the start of the next descriptor.
      state = 'in';
      continue;
    }
    pos++;
  }
}

/** The standard's descriptor rules: at most one of w, x, h; no w with x; h only with w. */
function validDescriptors(descriptors: string[]): boolean {
  let w = false;
  let x = false;
  let h = false;
  for (const d of descriptors) {
    const value = d.slice(0, -1);
    const kind = d.slice(-1);
    if ((kind === 'w' || kind === 'h') && /^\d+$/.test(value) && Number(value) > 0) {
      if (kind === 'w') {
        if (w || x) return false;
        w = true;
      } else {
        if (h || x) return false;
        h = true;
      }
    } else if (kind === 'x' && /^(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][+-]?\d+)?$/.test(value)) {
      if (w || x || h) return false;
      x = true;
    } else return false;
  }
  return !(h && !w);
}
