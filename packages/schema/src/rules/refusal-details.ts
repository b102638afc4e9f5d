/**
 * The `detail` of refusals, in both languages of the API: the answer holds the caller's
 * (buildProblem), as it does the title. Shared by the server and the mock where both refuse alike.
 * Codes, statuses and values the caller sends or reads (a status, an id, a keyword) stay as they are.
 */
import type { Localized } from './problem-bodies.js';

export const refusalDetails = {
  crawlNotSettled: (status: string): Localized => ({
    en: `The crawl is ${status}; poll it until stage_plan.settled is true.`,
    fr: `Le crawl est ${status} ; interrogez-le jusqu’à ce que stage_plan.settled soit true.`,
  }),
  crawlAlreadyRunning: (id: string): Localized => ({
    en: `Crawl ${id} is running`,
    fr: `Le crawl ${id} est en cours`,
  }),
  crawlNotFinished: (status: string): Localized => ({
    en: `The crawl is ${status}; exports need a completed, settled crawl.`,
    fr: `Le crawl est ${status} ; un export demande un crawl terminé et finalisé (settled).`,
  }),
  exportFailed: (error: string): Localized => ({
    en: `Generation failed: ${error}`,
    fr: `La génération a échoué : ${error}`,
  }),
  duplicateLogImport: (earlier: string, deleteUrl: string): Localized => ({
    en: `Import ${earlier} holds the same file (same SHA-256); its figures already count. Delete it (DELETE ${deleteUrl}) to import the file again.`,
    fr: `L’import ${earlier} contient le même fichier (même SHA-256) ; ses chiffres comptent déjà. Supprimez-le (DELETE ${deleteUrl}) pour importer le fichier à nouveau.`,
  }),
  logImportTooLarge: (maxBytes: number): Localized => ({
    en: `The file is larger than the plan's ${maxBytes} bytes.`,
    fr: `Le fichier dépasse les ${maxBytes} octets du forfait.`,
  }),
  keywordPool: (more: number, used: number, limit: number | null): Localized => ({
    en: `${more} more keyword(s) would use ${used + more} of the ${limit} tracked keyword slots of your plan (${used} in use)`,
    fr: `${more} mot(s)-clé(s) de plus occuperaient ${used + more} des ${limit} places de mots-clés suivis de votre forfait (${used} occupées)`,
  }),
  keywordProjectCeiling: (more: number, held: number, ceiling: number | null): Localized => ({
    en: `${more} more keyword(s) would hold ${held} keywords in this project, above its ceiling of ${ceiling}`,
    fr: `${more} mot(s)-clé(s) de plus porteraient ce projet à ${held} mots-clés, au-delà de son plafond de ${ceiling}`,
  }),
  keywordNotTracked: (keyword: string): Localized => ({
    en: `"${keyword}" is not tracked in this project`,
    fr: `« ${keyword} » n’est pas suivi dans ce projet`,
  }),
  keywordCheckedToday: (keyword: string, day: string): Localized => ({
    en: `"${keyword}" was already checked on ${day}; the next check is possible tomorrow (UTC)`,
    fr: `« ${keyword} » a déjà été vérifié le ${day} ; la prochaine vérification est possible demain (UTC)`,
  }),
  crawlsMonthly: (used: number, limit: number | null): Localized => ({
    en: `${used} of ${limit} crawls used this month`,
    fr: `crawls utilisés ce mois-ci : ${used} sur ${limit}`,
  }),
  maxUrls: (maxUrls: number, limit: number | null): Localized => ({
    en: `max_urls ${maxUrls} exceeds ${limit}`,
    fr: `max_urls ${maxUrls} dépasse ${limit}`,
  }),
  liveChecksToday: (used: number, limit: number | null): Localized => ({
    en: `${used} of ${limit} live checks used today (UTC)`,
    fr: `vérifications immédiates utilisées aujourd’hui (UTC) : ${used} sur ${limit}`,
  }),
  liveChecksThisMonth: (used: number, limit: number | null): Localized => ({
    en: `${used} of ${limit} live checks used this month`,
    fr: `vérifications immédiates utilisées ce mois-ci : ${used} sur ${limit}`,
  }),
  scheduleNotInPlan: (frequency: string, plan: string): Localized => ({
    en: `schedule frequency ${frequency} is not in the ${plan} plan`,
    fr: `la fréquence ${frequency} n’est pas incluse dans le forfait ${plan}`,
  }),
  shuttingDown: (): Localized => ({
    en: 'The server is shutting down: send the request again in a moment.',
    fr: 'Le serveur s’arrête : renvoyez la requête dans un instant.',
  }),
  authFailures: (retryAfter: number): Localized => ({
    en: `Too many failed authentications from this address; retry in ${retryAfter} s.`,
    fr: `Trop d’échecs d’authentification depuis cette adresse ; réessayez dans ${retryAfter} s.`,
  }),
};
