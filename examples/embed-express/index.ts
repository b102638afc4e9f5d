/**
 * Mounting the reference server in your own Express app: your routes stay yours, the API answers
 * under /v1. Run with `npx tsx examples/embed-express/index.ts`; DATABASE_URL selects PostgreSQL.
 */
import express from 'express';
import { createSiteAuditServer } from '@siteaudit/server';

const siteaudit = await createSiteAuditServer({
  database: process.env.DATABASE_URL ?? 'sqlite:./siteaudit-embedded.db',
});

// An operator task, done once: a team, its owner and a token for this demo.
const team = 'embedded';
await siteaudit.admin.createTeam({ slug: team, name: 'Embedded', plan: 'pro' }).catch(() => undefined);
await siteaudit.admin.addMember({ team, email: 'owner@embedded.test', name: 'Owner', role: 'owner' }).catch(() => undefined);
const { token } = await siteaudit.admin.createToken({ team, member: 'owner@embedded.test', name: 'demo', scopes: ['projects:read', 'projects:write'] });

const app = express();
app.get('/health', (_req, res) => {
  res.json({ ok: true });
});
app.use(siteaudit.app); // the API: /v1/…

const port = Number(process.env.PORT ?? 3000);
const http = app.listen(port, () => {
  console.log(`Your app on http://127.0.0.1:${port}; the API under /v1`);
  console.log(`curl -H "Authorization: Bearer ${token}" http://127.0.0.1:${port}/v1/projects`);
});

process.once('SIGINT', () => {
  http.close();
  void siteaudit.close();
});
