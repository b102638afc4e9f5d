import { describe, expect, it } from 'vitest';
import { cursorBinding } from '../../src/rules/cursors.js';

describe('cursors', () => {
  it('binds a cursor to the path and filters, not to cursor and limit', () => {
    expect(cursorBinding({ project: 'p' }, { b: '1', a: '2', limit: 5, cursor: 'x' })).toBe(cursorBinding({ project: 'p' }, { a: '2', b: '1' }));
    expect(cursorBinding({ project: 'p' }, {})).not.toBe(cursorBinding({ project: 'q' }, {}));
  });
});
