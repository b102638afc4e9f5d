/**
 * The axes of the scorecard's crawl pillars (docs/decisions/scorecard.md): the server and the
 * mock build them with these, from a score per check category.
 */
import type { Scorecard } from '../resources/scorecard.js';
import { CRAWL_PILLAR_CATEGORIES } from './crawl-changes.js';

export type ScorecardAxis = Scorecard['pillars'][number]['axes'][number];

/** The technique pillar's axes: one per technical category, equally weighted. */
export const TECHNIQUE_AXES = CRAWL_PILLAR_CATEGORIES.technique;
/** Content and GEO: on-page content, structured data, and reachability by AI agents. */
export const CONTENT_AXES = CRAWL_PILLAR_CATEGORIES.contenu;

/** Technique: one axis per category, and `pagespeed` once measured (it is part of the health score then). */
export function techniqueAxes(scoreOf: (category: string) => number | null, pagespeed: number | null): ScorecardAxis[] {
  const keys: string[] = [...TECHNIQUE_AXES, ...(pagespeed !== null ? ['pagespeed'] : [])];
  return keys.map((key) => ({ key, score: key === 'pagespeed' ? pagespeed : scoreOf(key), weight: 1 / keys.length }));
}

/**
 * Content: one axis per category; `ai_reachability` counts only when the crawl checked it (else
 * shown with no score and weight 0). `scored` are the categories the pillar's score covers.
 */
export function contentAxes(scoreOf: (category: string) => number | null, aiChecked: boolean): { axes: ScorecardAxis[]; scored: string[] } {
  const scored = CONTENT_AXES.filter((key) => key !== 'ai_reachability' || aiChecked);
  return {
    scored,
    axes: CONTENT_AXES.map((key) => ({
      key,
      score: key === 'ai_reachability' && !aiChecked ? null : scoreOf(key),
      weight: scored.includes(key) ? 1 / scored.length : 0,
    })),
  };
}
