/**
 * Structured data that parses but lacks what Google requires for the type's rich result
 * (developers.google.com/search/docs/appearance/structured-data): the top-level entities of each
 * JSON-LD block, and those of an `@graph`. Where Google lists no required property (Article,
 * Organization), the property without which the result has nothing to show stands in for it
 * (docs/decisions/checks-catalogue.md). Nested entities (a Product's brand) are not judged: they
 * are not rich results of their own.
 */
import { CHECK_DETAILS as D } from '@siteaudit/schema';
import type { CheckName } from '../checks.js';

type Entity = Record<string, unknown>;

/** A requirement: one property, or any one of several (`offers | review | aggregateRating`). */
type Requirement = string | readonly string[];

interface RichResult {
  check: CheckName;
  /** The name shown in details. */
  type: string;
  types: readonly string[];
  required: readonly Requirement[];
  /** Extra checks of the entity's parts; each returns what is missing. */
  parts?: (entity: Entity) => string[];
}

const has = (e: Entity, key: string) => {
  const v = e[key];
  return v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0);
};
const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);
const isEntity = (v: unknown): v is Entity => typeof v === 'object' && v !== null && !Array.isArray(v);

const RICH_RESULTS: RichResult[] = [
  { check: 'schema_product_incomplete', type: 'Product', types: ['Product', 'ProductGroup'], required: ['name', ['offers', 'review', 'aggregateRating']] },
  { check: 'schema_article_incomplete', type: 'Article', types: ['Article', 'NewsArticle', 'BlogPosting', 'TechArticle', 'ScholarlyArticle'], required: ['headline'] },
  {
    check: 'schema_breadcrumb_incomplete',
    type: 'BreadcrumbList',
    types: ['BreadcrumbList'],
    required: ['itemListElement'],
    parts: (e) => {
      const items = asList(e.itemListElement).filter(isEntity);
      const missing = new Set<string>();
      items.forEach((item, i) => {
        if (!has(item, 'position')) missing.add('itemListElement.position');
        const inner = isEntity(item.item) ? item.item : null;
        if (!has(item, 'name') && !(inner && has(inner, 'name'))) missing.add('itemListElement.name');
        // The last item may omit `item` (it is the page itself).
        if (i < items.length - 1 && !has(item, 'item')) missing.add('itemListElement.item');
      });
      return [...missing];
    },
  },
  { check: 'schema_organization_incomplete', type: 'Organization', types: ['Organization', 'Corporation', 'NGO', 'OnlineStore', 'EducationalOrganization'], required: ['name'] },
  {
    check: 'schema_faq_incomplete',
    type: 'FAQPage',
    types: ['FAQPage'],
    required: ['mainEntity'],
    parts: (e) => {
      const missing = new Set<string>();
      for (const q of asList(e.mainEntity).filter(isEntity)) {
        if (!has(q, 'name')) missing.add('mainEntity.name');
        const answer = asList(q.acceptedAnswer).find(isEntity);
        if (!answer || !has(answer, 'text')) missing.add('mainEntity.acceptedAnswer.text');
      }
      return [...missing];
    },
  },
  { check: 'schema_event_incomplete', type: 'Event', types: ['Event', 'MusicEvent', 'SportsEvent', 'BusinessEvent', 'EducationEvent', 'Festival', 'TheaterEvent'], required: ['name', 'startDate', 'location'] },
  { check: 'schema_recipe_incomplete', type: 'Recipe', types: ['Recipe'], required: ['name', 'image'] },
  {
    check: 'schema_local_business_incomplete',
    type: 'LocalBusiness',
    types: ['LocalBusiness', 'Restaurant', 'Store', 'Dentist', 'MedicalBusiness', 'LodgingBusiness', 'Hotel', 'AutomotiveBusiness', 'FoodEstablishment', 'ProfessionalService', 'HealthAndBeautyBusiness', 'HomeAndConstructionBusiness', 'LegalService', 'FinancialService', 'RealEstateAgent'],
    required: ['name', 'address'],
  },
];

function typesOf(e: Entity): string[] {
  return asList(e['@type']).filter((t): t is string => typeof t === 'string').map((t) => t.replace(/^(?:https?:\/\/)?schema\.org\//i, ''));
}

/** The top-level entities of the JSON-LD blocks that parse (an array, an @graph). */
function topEntities(blocks: readonly string[]): Entity[] {
  const out: Entity[] = [];
  for (const block of blocks) {
    let data: unknown;
    try {
      data = JSON.parse(block);
    } catch {
      continue;
    }
    for (const item of asList(data)) {
      if (!isEntity(item)) continue;
      if (Array.isArray(item['@graph'])) out.push(...item['@graph'].filter(isEntity));
      else out.push(item);
    }
  }
  return out;
}

/** One finding per rich result type whose entities lack required properties (the first such entity is described). */
export function structuredDataGaps(blocks: readonly string[]): { name: CheckName; details: string }[] {
  const found = new Map<CheckName, string>();
  for (const entity of topEntities(blocks)) {
    const types = typesOf(entity);
    for (const rich of RICH_RESULTS) {
      if (found.has(rich.check) || !types.some((t) => rich.types.includes(t))) continue;
      const missing = rich.required.filter((r) => (typeof r === 'string' ? !has(entity, r) : !r.some((k) => has(entity, k)))).map((r) => (typeof r === 'string' ? r : r.join(' | ')));
      if (missing.length === 0 && rich.parts) missing.push(...rich.parts(entity));
      if (missing.length) found.set(rich.check, D.schemaIncomplete(rich.type, missing));
    }
  }
  return [...found].map(([name, details]) => ({ name, details }));
}
