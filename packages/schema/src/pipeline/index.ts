export * from './ports.js';
export * from './problem.js';
export * from './answer.js';
export * from './pipeline.js';
export * from './plan-limits.js';
