import sqlite3 from 'sqlite3';
import { createHash } from 'node:crypto';
const variant = process.argv[2];
const file = `/tmp/sj/idx-${variant}.sqlite`;
const db = new sqlite3.Database(file);
const run = (sql, p = []) => new Promise((res, rej) => db.run(sql, p, (e) => (e ? rej(e) : res())));
const all = (sql, p = []) => new Promise((res, rej) => db.all(sql, p, (e, r) => (e ? rej(e) : res(r))));
await run('pragma journal_mode=wal');
await run('drop table if exists crawl_issues');
await run(`create table crawl_issues (crawl_id char(36) not null, seq integer not null, name varchar(100) not null, severity varchar(10) not null, severity_rank integer not null, category varchar(50) not null, url text not null, url_hash varchar(64) not null, details text not null, section text, primary key (crawl_id, seq))`);
if (variant === 'old') {
  await run('create index u on crawl_issues (crawl_id, url_hash)');
  await run('create index pairs on crawl_issues (crawl_id, name, url_hash, severity, category, seq)');
} else {
  await run('create index pp on crawl_issues (crawl_id, url_hash, name, severity, category, seq)');
  await run('create index bc on crawl_issues (crawl_id, name, seq)');
}
await run('create index sr on crawl_issues (crawl_id, severity_rank, seq)');
const names = ['http_page', 'viewport_missing', 'canonical_missing', 'description_too_short', 'og_missing', 'title_too_short'];
const C = '00000000-0000-4000-8000-000000000001';
let seq = 0;
const t0 = performance.now();
for (let b = 0; b < 1000; b++) {
  await run('begin');
  const rows = [];
  for (let p = b * 200; p < (b + 1) * 200; p++) {
    const url = `http://127.0.0.1:40123/p/${p}`;
    const h = createHash('sha256').update(url).digest('hex');
    for (const n of names) rows.push([C, seq++, n, 'info', 2, 'content', url, h, 'some details', '/p']);
  }
  await run(`insert into crawl_issues (crawl_id, seq, name, severity, severity_rank, category, url, url_hash, details, section) select value->>0, value->>1, value->>2, value->>3, value->>4, value->>5, value->>6, value->>7, value->>8, value->>9 from json_each(?)`, [JSON.stringify(rows)]);
  await run('commit');
}
const load = performance.now() - t0;
const time = async (label, sql, p) => { const t = performance.now(); const r = await all(sql, p); const plan = await all('explain query plan ' + sql, p); console.log(variant, label, Math.round(performance.now() - t), 'ms', r.length, plan.map((x) => x.detail).join(' | ')); };
console.log(variant, 'load', Math.round(load), 'ms');
await time('checkCounts', `select name, severity, category, count(*) as occurrences, count(distinct url_hash) as pages from crawl_issues where crawl_id = ? group by name, severity, category`, [C]);
await time('summary', `select name, severity, category, severity_rank, count(*) as occurrences, count(distinct url_hash) as pages from crawl_issues where crawl_id = ? group by name, severity, category, severity_rank order by severity_rank, occurrences desc, name`, [C]);
await time('templatesOf', `select section, details, count(distinct url_hash) as pages from crawl_issues where crawl_id = ? and name = ? group by section, details order by pages desc, details limit 20`, [C, 'og_missing']);
await time('byName', `select * from crawl_issues where crawl_id = ? and name = ? order by severity_rank, seq limit 26`, [C, 'og_missing']);
await time('byUrl', `select * from crawl_issues where crawl_id = ? and url_hash = ? order by severity_rank, seq`, [C, createHash('sha256').update('http://127.0.0.1:40123/p/777').digest('hex')]);
await time('flagged', `select name, url_hash from crawl_issues where crawl_id = ? and name in ('noindex', 'blocked_by_robots')`, [C]);
