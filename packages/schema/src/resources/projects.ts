import { z } from 'zod';
import { DateTime, PageQuery, Uuid, withoutCredentials } from '../common.js';

/** The longest project name a caller may give. */
export const PROJECT_NAME_MAX = 120;

export const Project = z
  .object({
    id: Uuid,
    name: z.string(),
    slug: z.string(),
    url: z.string(),
    domain: z.string(),
    locked: z.boolean().describe('true means the project is read-only'),
    created_at: DateTime,
    latest_completed_crawl: z.object({ id: Uuid, finished_at: DateTime }).nullable(),
  })
  .meta({ id: 'Project' });
export type Project = z.infer<typeof Project>;

/** A public http(s) site URL; whether it resolves to a public address is checked by the server. */
export const SiteUrl = z
  .string()
  .trim()
  .max(2048)
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname.length > 0;
    } catch {
      return false;
    }
  }, { message: 'Must be an absolute http or https URL', params: { code: 'invalid_url', fr: 'Doit être une URL http ou https absolue' } })
  // A site's URL is public: credentials in it would be shown to every reader and never sent
  // (the crawler takes them from the campaign's http_user and http_password).
  .refine(withoutCredentials, {
    message: 'Must not hold a user name or password: set http_user and http_password on the campaign',
    params: { code: 'invalid_url', fr: 'Ne doit contenir ni nom d’utilisateur ni mot de passe : renseignez http_user et http_password sur la campagne' },
  });

export const CreateProjectBody = z
  .strictObject({
    url: SiteUrl,
    name: z.string().trim().min(1).max(PROJECT_NAME_MAX).nullable().optional(),
  })
  .meta({ id: 'CreateProjectBody' });

export const UpdateProjectBody = z
  .strictObject({
    name: z.string().trim().min(1).max(PROJECT_NAME_MAX).optional(),
    url: SiteUrl.optional(),
  })
  .meta({ id: 'UpdateProjectBody' });

export const ProjectParams = z.strictObject({ project: Uuid });
export const ListProjectsQuery = PageQuery;
