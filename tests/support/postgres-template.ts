/**
 * PostgreSQL test databases are copies of a template that already holds the server's tables and
 * pg-boss's schema: `CREATE DATABASE … TEMPLATE` takes ~0.1 s where migrating a fresh schema and
 * installing pg-boss takes 2–5 s, and a test run starts ~150 servers. The template's name carries
 * a digest of what shapes it (the migrations, the job engine and pg-boss's version), so a changed
 * migration makes a new one; a server started on a copy still runs its migrations, so a template
 * that missed something costs time, never correctness.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import knexFactory, { type Knex } from 'knex';

const server = (p: string) => fileURLToPath(new URL(`../../packages/server/${p}`, import.meta.url));

function templateName(): string {
  const hash = createHash('sha256');
  const migrations = server('src/store/migrations');
  for (const file of readdirSync(migrations).sort()) hash.update(file).update(readFileSync(`${migrations}/${file}`));
  hash.update(readFileSync(server('src/jobs/pg-boss-runner.ts')));
  hash.update(readFileSync(fileURLToPath(new URL('../../node_modules/pg-boss/package.json', import.meta.url))));
  return `siteaudit_template_${hash.digest('hex').slice(0, 12)}`;
}

/** The URL of database `name` on the server of `url`. */
export function databaseUrl(url: string, name: string): string {
  const target = new URL(url);
  target.pathname = `/${name}`;
  return target.href;
}

function maintenance(url: string): Knex {
  return knexFactory({ client: 'pg', connection: databaseUrl(url, 'postgres'), pool: { min: 0, max: 1 } });
}

let ready: Promise<string> | undefined;

/** The template's name, made once per machine and migration set (concurrent runs race harmlessly: one rename wins). */
export function postgresTemplate(url: string): Promise<string> {
  ready ??= (async () => {
    const name = templateName();
    const admin = maintenance(url);
    try {
      if ((await admin('pg_database').where({ datname: name }).first('datname')) !== undefined) return name;
      const building = `${name}_${randomBytes(4).toString('hex')}`;
      await admin.raw(`create database ${building}`);
      const { createSiteAuditServer } = await import('../../packages/server/src/index.js');
      const setup = await createSiteAuditServer({ database: databaseUrl(url, building), logger: false });
      await setup.close();
      // The template keeps pg-boss's schema and queues, not the jobs the setup server queued
      // (its schedulers and sweeps): a copy starts with no job, as a new database does.
      const built = knexFactory({ client: 'pg', connection: databaseUrl(url, building), pool: { min: 0, max: 1 } });
      await built.raw('delete from pgboss.job').finally(() => built.destroy());
      await admin.raw(`alter database ${building} rename to ${name}`).catch(async (error: { code?: string }) => {
        await admin.raw(`drop database if exists ${building} with (force)`);
        // Another run published the same template first.
        if (error.code !== '42P04') throw error;
      });
      return name;
    } finally {
      await admin.destroy();
    }
  })();
  return ready;
}

/** A new database copied from the template, and how to drop it. */
export async function databaseFromTemplate(url: string, prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const template = await postgresTemplate(url);
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = maintenance(url);
  try {
    // A copy fails while another session is still connected to the template (object_in_use): briefly retried.
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.raw(`create database ${name} template ${template}`);
        break;
      } catch (error) {
        if ((error as { code?: string }).code !== '55006' || attempt >= 20) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  } finally {
    await admin.destroy();
  }
  return {
    url: databaseUrl(url, name),
    drop: async () => {
      const again = maintenance(url);
      try {
        await again.raw(`drop database if exists ${name} with (force)`);
      } finally {
        await again.destroy();
      }
    },
  };
}
