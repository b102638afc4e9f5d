/**
 * @siteaudit/schema/pipeline: the request pipeline both servers run (docs/decisions/request-pipeline.md),
 * bound by thin adapters in the server and the mock.
 */
export { attachment, DEFAULT_PAGE_SIZE, JSON_CONTENT_TYPE, parseJsonBody, toAnswer } from './answer.js';
export { createPipeline, type Pipeline } from './pipeline.js';
export { assertIncluded, assertWithinPlan } from './plan-limits.js';
export {
  type Answer,
  type CallerFacts,
  type FileOutput,
  type IdempotencyClaim,
  type JsonOutput,
  type ListOutput,
  type PageRequest,
  type PipelineContext,
  type PipelinePorts,
  type PipelineRequest,
  type StoredAnswer,
  type Upload,
} from './ports.js';
export { ApiError, problemAnswer, unroutedError } from './problem.js';
