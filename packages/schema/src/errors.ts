import { z } from 'zod';

export type Language = 'fr' | 'en';
export const LANGUAGES: readonly Language[] = ['fr', 'en'];

interface ErrorEntry {
  readonly status: number;
  readonly title: { readonly fr: string; readonly en: string };
}

/**
 * The error catalogue: every code the spec names, plus ours where it leaves a gap
 * (docs/decisions/errors.md). A code is never translated; its title follows Accept-Language.
 */
export const ERRORS = {
  // 400
  'pagination.invalid_cursor': { status: 400, title: { fr: 'Curseur de pagination invalide', en: 'Invalid pagination cursor' } },
  'request.malformed': { status: 400, title: { fr: 'Requête HTTP mal formée', en: 'Malformed HTTP request' } },
  'request.malformed_json': { status: 400, title: { fr: 'Corps JSON mal formé', en: 'Malformed JSON body' } },
  'idempotency.key_required': { status: 400, title: { fr: 'En-tête Idempotency-Key requis', en: 'Idempotency-Key header required' } },
  'idempotency.key_invalid': { status: 400, title: { fr: 'En-tête Idempotency-Key invalide', en: 'Invalid Idempotency-Key header' } },
  // 401
  unauthenticated: { status: 401, title: { fr: 'Authentification requise', en: 'Authentication required' } },
  // 403
  'token.missing_scope': { status: 403, title: { fr: 'Portée du jeton insuffisante', en: 'Token is missing a required scope' } },
  'api.not_in_plan': { status: 403, title: { fr: "L'API n'est pas incluse dans votre offre", en: 'The API is not included in your plan' } },
  'api.write_not_in_plan': { status: 403, title: { fr: "L'écriture via l'API n'est pas incluse dans votre offre", en: 'API write access is not included in your plan' } },
  'role.forbidden': { status: 403, title: { fr: 'Réservé aux propriétaires et administrateurs', en: 'Reserved to owners and admins' } },
  'project.locked': { status: 403, title: { fr: 'Projet en lecture seule', en: 'Project is read-only' } },
  'plan_limit.projects': { status: 403, title: { fr: 'Nombre maximal de projets atteint pour votre offre', en: 'Project limit of your plan reached' } },
  'plan_limit.crawls.monthly': { status: 403, title: { fr: 'Quota mensuel de crawls épuisé', en: 'Monthly crawl quota used up' } },
  'plan_limit.crawls.max_urls': { status: 403, title: { fr: "Budget d'URL supérieur à celui de votre offre", en: 'URL budget above what your plan allows' } },
  'plan_limit.crawls.javascript_rendering': { status: 403, title: { fr: "Le rendu JavaScript n'est pas inclus dans votre offre", en: 'JavaScript rendering is not included in your plan' } },
  'plan_limit.crawls.schedule_frequency': { status: 403, title: { fr: "Cette fréquence de planification n'est pas incluse dans votre offre", en: 'This schedule frequency is not included in your plan' } },
  'plan_limit.exports.excel': { status: 403, title: { fr: "L'export Excel n'est pas inclus dans votre offre", en: 'Excel export is not included in your plan' } },
  'plan_limit.positions': { status: 403, title: { fr: "Le suivi de positions n'est pas inclus dans votre offre", en: 'Rank tracking is not included in your plan' } },
  'plan_limit.positions.tracked_keywords': { status: 403, title: { fr: 'Réserve de mots-clés suivis épuisée', en: 'Tracked keyword pool used up' } },
  'plan_limit.positions.live_checks_per_day': { status: 403, title: { fr: 'Quota quotidien de vérifications immédiates épuisé', en: 'Daily live check quota used up' } },
  'plan_limit.positions.monthly_spend': { status: 403, title: { fr: 'Plafond de dépense mensuel atteint', en: 'Monthly spend cap reached' } },
  'plan_limit.search_console': { status: 403, title: { fr: "Search Console n'est pas inclus dans votre offre", en: 'Search Console is not included in your plan' } },
  'plan_limit.logs': { status: 403, title: { fr: "L'exploration des logs n'est pas incluse dans votre offre", en: 'Log exploration is not included in your plan' } },
  'plan_limit.api.webhooks.max': { status: 403, title: { fr: 'Nombre maximal de webhooks atteint', en: 'Webhook limit of your plan reached' } },
  'keywords.project_limit': { status: 403, title: { fr: 'Plafond de mots-clés du projet atteint', en: 'Project keyword ceiling reached' } },
  // 404, 405
  not_found: { status: 404, title: { fr: 'Ressource introuvable', en: 'Resource not found' } },
  method_not_allowed: { status: 405, title: { fr: 'Méthode non autorisée', en: 'Method not allowed' } },
  // 409
  conflict: { status: 409, title: { fr: "Conflit avec l'état actuel", en: 'Conflict with the current state' } },
  'idempotency.key_in_use': { status: 409, title: { fr: 'Une requête avec cette Idempotency-Key est en cours', en: 'A request with this Idempotency-Key is in progress' } },
  'idempotency.key_reused': { status: 409, title: { fr: 'Idempotency-Key déjà utilisée pour une autre requête', en: 'Idempotency-Key already used for another request' } },
  'crawl.already_running': { status: 409, title: { fr: 'Un crawl de cette campagne est déjà en cours', en: 'A crawl of this campaign is already running' } },
  'crawl.not_settled': { status: 409, title: { fr: "Les rapports du crawl ne sont pas encore prêts", en: 'Crawl reports are not ready yet' } },
  'crawl.not_finished': { status: 409, title: { fr: "Le crawl n'est pas terminé", en: 'The crawl has not finished' } },
  'project.not_ready': { status: 409, title: { fr: "Le projet n'est pas prêt", en: 'The project is not ready' } },
  'export.not_ready': { status: 409, title: { fr: "L'export est en cours de génération", en: 'The export is being generated' } },
  'keywords.not_tracked': { status: 409, title: { fr: "Un mot-clé n'est pas suivi", en: 'A keyword is not tracked' } },
  'log_import.duplicate': { status: 409, title: { fr: 'Ce fichier de logs a déjà été importé dans ce projet', en: 'This log file was already imported into this project' } },
  'keywords.already_checked_today': { status: 409, title: { fr: "Mot-clé déjà vérifié aujourd'hui", en: 'Keyword already checked today' } },
  // 410, 413, 415, 431
  'export.expired': { status: 410, title: { fr: "L'export a expiré", en: 'The export has expired' } },
  'request.too_large': { status: 413, title: { fr: 'Corps de requête trop volumineux', en: 'Request body too large' } },
  'request.unsupported_media_type': { status: 415, title: { fr: 'Le corps doit être en JSON (application/json)', en: 'Body must be JSON (application/json)' } },
  'log_import.too_large': { status: 413, title: { fr: "Fichier de logs plus volumineux que ce que permet votre offre", en: 'Log file larger than your plan allows' } },
  'log_import.unsupported_media_type': { status: 415, title: { fr: 'Le fichier de logs doit être du texte ou du gzip', en: 'The log file must be plain text or gzip' } },
  'request.headers_too_large': { status: 431, title: { fr: "En-têtes de requête trop volumineux", en: 'Request header fields too large' } },
  // 422
  validation_failed: { status: 422, title: { fr: 'Données invalides', en: 'Invalid data' } },
  'webhook.url_refused': { status: 422, title: { fr: "L'URL du webhook doit être en HTTPS et pointer vers une adresse publique", en: 'The webhook URL must use HTTPS and resolve to a public address' } },
  'project.url_refused': { status: 422, title: { fr: "L'URL du site doit pointer vers une adresse publique", en: 'The site URL must resolve to a public address' } },
  // 429
  rate_limited: { status: 429, title: { fr: 'Limite de requêtes atteinte', en: 'Rate limit exceeded' } },
  // 5xx
  internal_error: { status: 500, title: { fr: 'Erreur interne', en: 'Internal error' } },
  service_unavailable: { status: 503, title: { fr: 'Service momentanément indisponible', en: 'Service temporarily unavailable' } },
} as const satisfies Record<string, ErrorEntry>;

export type ErrorCode = keyof typeof ERRORS;
export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];

/** Where each code is documented; the problem `type` is this base plus the code. */
export const ERROR_TYPE_BASE = 'https://siteaudit.dev/docs/errors#';

export function errorStatus(code: ErrorCode): number {
  return ERRORS[code].status;
}

export function errorTitle(code: ErrorCode, language: Language): string {
  return ERRORS[code].title[language];
}

/** One validation message of a field. */
export const FieldError = z
  .object({ code: z.string(), message: z.string() })
  .meta({ id: 'FieldError' });

/**
 * RFC 9457 problem details with our extensions. `code` is stable; `title` follows
 * Accept-Language; `errors` is keyed by field path (`schedule.time`, `keywords.3`).
 */
export const Problem = z
  .object({
    type: z.url(),
    title: z.string(),
    status: z.int().min(400).max(599),
    code: z.enum(ERROR_CODES as [ErrorCode, ...ErrorCode[]]),
    detail: z.string().optional(),
    request_id: z.string().optional(),
    errors: z.record(z.string(), z.array(FieldError)).optional(),
    required_scopes: z.array(z.string()).optional(),
    upgrade_to: z.string().nullable().optional(),
    window: z.enum(['minute', 'day']).optional(),
    retry_after: z.int().min(0).optional(),
  })
  .meta({ id: 'Problem', description: 'RFC 9457 problem details (application/problem+json).' });
export type Problem = z.infer<typeof Problem>;
