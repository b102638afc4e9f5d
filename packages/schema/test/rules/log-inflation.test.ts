import { expect, it } from 'vitest';
import { INFLATION_FLOOR_BYTES, inflatesTooMuch, MAX_INFLATION_RATIO } from '../../src/rules/log-inflation.js';

it('bounds inflation at 300 times the bytes sent, from the first MiB', () => {
  const MiB = 1024 * 1024;
  expect(MAX_INFLATION_RATIO * INFLATION_FLOOR_BYTES).toBe(300 * MiB);
  // A small file may inflate to 300 MiB; a bomb of 300 KB may not go further.
  expect(inflatesTooMuch(300 * MiB, 300 * 1024)).toBe(false);
  expect(inflatesTooMuch(300 * MiB + 1, 300 * 1024)).toBe(true);
  // A 1 GiB log compressed 50 times is far inside; compressed 400 times it is not.
  expect(inflatesTooMuch(50 * 1024 * MiB, 1024 * MiB)).toBe(false);
  expect(inflatesTooMuch(400 * 1024 * MiB, 1024 * MiB)).toBe(true);
});
