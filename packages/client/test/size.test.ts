import { describe, expect, it } from 'vitest';
import { LIMIT_BYTES, measure } from '../scripts/size.mjs';

describe('bundle size of the main entry', () => {
  it(`stays under ${LIMIT_BYTES} bytes min+gzip, without zod, the schemas or Node built-ins`, async () => {
    const result = await measure();
    expect(result.forbidden).toEqual([]);
    expect(result.inputs.some((path) => /zod|schema\/src\/(index|contract|errors|common|resources)/.test(path))).toBe(false);
    expect(result.gzip).toBeGreaterThan(0);
    expect(result.gzip).toBeLessThanOrEqual(LIMIT_BYTES);
  });
});
