/**
 * The one shape every server module has (docs/architecture.md, "Modules"): a name, the modules
 * whose provisions it is handed (`needs`), the operations it answers, the jobs, quota counters
 * and event subscribers it declares, what it provides to others, and what it does when the server starts and stops.
 *
 * A module declares; it registers nothing. server.ts builds the modules in one list, registers
 * every declared job with the job engine and every quota counter with the usage reader, then
 * subscribes the event subscribers, then starts them. `handlersOf` merges the handlers into a type that lacks every operation no module
 * answers, so assigning it to `Handlers` makes a missing handler a compile error (as the mock's
 * `satisfies` does).
 */
import type { Entitlement } from '@siteaudit/schema/rules';
import type { Handlers } from '../http/binder.js';
import type { EventSubscriber } from '../events/bus.js';
import type { Caller } from '../http/context.js';
import type { JobHandler, JobKind } from '../jobs/job-runner.js';

/** A job a module runs: its kind (declared with its options by `defineJob`) and its code. */
export interface ModuleJob<P = any> {
  kind: JobKind<P>;
  handler: JobHandler<P>;
}

export function defineJobHandler<P>(kind: JobKind<P>, handler: JobHandler<P>): ModuleJob<P> {
  return { kind, handler };
}

/** How GET /v1/usage counts one quota: from the rows that consume it. */
export type QuotaCounter = (caller: Caller, now: Date) => Promise<number>;

export interface ModuleQuota {
  entitlement: Entitlement;
  count: QuotaCounter;
}

export function defineQuota(entitlement: Entitlement, count: QuotaCounter): ModuleQuota {
  return { entitlement, count };
}

export interface ServerModule<H extends Partial<Handlers> = Partial<Handlers>, P extends object = object> {
  readonly name: string;
  /** The modules this one is handed something of (server.ts wires them; each comes earlier in the list). */
  readonly needs: readonly string[];
  readonly handlers: H;
  readonly jobs: readonly ModuleJob[];
  readonly quotas: readonly ModuleQuota[];
  /** Called for every published event, in the publisher's transaction (webhook fan-out). */
  readonly events: readonly EventSubscriber[];
  /** What other modules may be handed of this one (their `needs`), by the types they declare. */
  readonly provides: P;
  /** After every module is built and before the job runner starts, in a process that runs jobs (queues sweeps, the scheduler). */
  start?(): Promise<void> | void;
  /** After the job runner stopped, in reverse order (closes connections the module opened). */
  close?(): Promise<void> | void;
}

export interface ModuleDefinition<H extends Partial<Handlers>, P extends object> {
  name: string;
  needs?: readonly string[];
  handlers: H;
  jobs?: readonly ModuleJob[];
  quotas?: readonly ModuleQuota[];
  events?: readonly EventSubscriber[];
  provides?: P;
  start?(): Promise<void> | void;
  close?(): Promise<void> | void;
}

export function defineModule<H extends Partial<Handlers>, P extends object = Record<never, never>>(definition: ModuleDefinition<H, P>): ServerModule<H, P> {
  return Object.freeze({
    needs: [],
    jobs: [],
    quotas: [],
    events: [],
    provides: {} as P,
    ...definition,
  });
}

/**
 * Refuses a list whose modules repeat a name, a job kind or a quota, or need a module that does
 * not come before them: server.ts calls it on its one list before registering anything.
 */
export function checkModules(modules: readonly ServerModule<object>[]): void {
  const seen = new Set<string>();
  const kinds = new Set<string>();
  const quotas = new Set<string>();
  for (const module of modules) {
    if (seen.has(module.name)) throw new Error(`module ${module.name} is listed twice`);
    for (const need of module.needs) if (!seen.has(need)) throw new Error(`module ${module.name} needs ${need}, which is not listed before it`);
    seen.add(module.name);
    for (const { kind } of module.jobs) {
      if (kinds.has(kind.name)) throw new Error(`job ${kind.name} is declared twice (module ${module.name})`);
      kinds.add(kind.name);
    }
    for (const { entitlement } of module.quotas) {
      if (quotas.has(entitlement)) throw new Error(`quota ${entitlement} is counted twice (module ${module.name})`);
      quotas.add(entitlement);
    }
  }
}

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** The handlers of all modules, typed as the intersection of theirs. */
export type MergedHandlers<M extends readonly ServerModule<object>[]> = UnionToIntersection<M[number]['handlers']>;

export function handlersOf<const M extends readonly ServerModule<object>[]>(modules: M): MergedHandlers<M> {
  return Object.assign({}, ...modules.map((m) => m.handlers)) as MergedHandlers<M>;
}
