/**
 * Runs scripts/perl-openapi/flow.pl against the built server (scripts/check-perl-openapi.sh).
 * Starts what the generator flows use (scripts/flow-harness.ts: the server with a seeded token,
 * the local site, the webhook receiver) and a control endpoint for what is not the API (the
 * site's version, holding its answers, the webhook bodies received), then runs the Perl flow with
 * their addresses in its environment and exits with its exit code.
 *
 * Usage: tsx scripts/perl-openapi/serve.ts [document]   (default docs/openapi-3.0.json)
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SCOPES } from '@siteaudit/schema';
import { close, listen, readBody, startBuiltServer, startSite, startWebhookReceiver } from '../flow-harness.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const document = path.resolve(process.argv[2] ?? path.join(ROOT, 'docs/openapi-3.0.json'));

async function main(): Promise<number> {
  const server = await startBuiltServer('perl');
  // A token that may only read projects: its writes answer 403 token.missing_scope.
  const { token: readToken } = await server.admin.createToken({ team: 'perl', member: 'owner@perl.test', name: 'read-only', scopes: ['projects:read'] });
  // A team on the starter plan (read-only API, 60 units a minute): 403 api.write_not_in_plan, 429.
  await server.admin.createTeam({ slug: 'perl-starter', name: 'Starter', plan: 'starter' });
  await server.admin.addMember({ team: 'perl-starter', email: 'owner@perl-starter.test', name: 'Owner', role: 'owner' });
  const { token: starterToken } = await server.admin.createToken({ team: 'perl-starter', member: 'owner@perl-starter.test', name: 'starter', scopes: [...SCOPES] });
  const site = await startSite();
  const receiver = await startWebhookReceiver();
  let release = () => {};
  // POST /site/version (body 1 or 2), POST /site/hold, POST /site/release, GET /webhooks/<path>.
  const control = createServer(async (req, res) => {
    const body = await readBody(req);
    const route = `${req.method} ${req.url}`;
    if (route === 'POST /site/version') site.version = Number(body);
    else if (route === 'POST /site/hold') site.gate = new Promise<void>((resolve) => (release = resolve));
    else if (route === 'POST /site/release') {
      release();
      site.gate = null;
    } else if (req.method === 'GET' && req.url?.startsWith('/webhooks/')) {
      const bodies = receiver.bodies.get(req.url.slice('/webhooks'.length)) ?? [];
      return res.writeHead(200, { 'content-type': 'application/json' }).end(`[${bodies.join(',')}]`);
    } else return res.writeHead(404).end();
    res.writeHead(204).end();
  });
  const controlUrl = await listen(control);
  try {
    const perl = spawn('perl', [path.join(ROOT, 'scripts/perl-openapi/flow.pl'), document], {
      stdio: 'inherit',
      env: { ...process.env, SITEAUDIT_API: server.url, SITEAUDIT_TOKEN: server.token, SITEAUDIT_READ_TOKEN: readToken, SITEAUDIT_STARTER_TOKEN: starterToken, SITEAUDIT_SITE: `${site.url}/`, SITEAUDIT_RECEIVER: receiver.url, SITEAUDIT_CONTROL: controlUrl },
    });
    return await new Promise<number>((resolve) => perl.on('close', (code) => resolve(code ?? 1)));
  } finally {
    release();
    await Promise.all([close(control), close(site.server), close(receiver.server)]);
    await server.close();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`check:perl-openapi: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
