/**
 * The one shape every server module has: the operations it answers, and what it does when the
 * server starts and stops. server.ts builds the modules in one list; `handlersOf` merges their
 * handlers into a type that lacks every operation no module answers, so assigning it to
 * `Handlers` makes a missing handler a compile error (as the mock's `satisfies` does).
 */
import type { Handlers } from '../http/binder.js';

export interface ServerModule<H extends Partial<Handlers> = Partial<Handlers>> {
  handlers: H;
  /** After every module is built and before the job runner starts, in a process that runs jobs (queues sweeps, the scheduler). */
  start?(): Promise<void> | void;
  /** After the job runner stopped, in reverse order (closes connections the module opened). */
  close?(): Promise<void> | void;
}

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** The handlers of all modules, typed as the intersection of theirs. */
export type MergedHandlers<M extends readonly ServerModule<object>[]> = UnionToIntersection<M[number]['handlers']>;

export function handlersOf<const M extends readonly ServerModule<object>[]>(modules: M): MergedHandlers<M> {
  return Object.assign({}, ...modules.map((m) => m.handlers)) as MergedHandlers<M>;
}
