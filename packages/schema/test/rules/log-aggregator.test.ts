/** The log file fold (log-aggregator.ts): what it counts, what it keeps, and that its fast path reads as parseLogLine does. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLogAggregator, mergeAggregates } from '../../src/rules/log-aggregator.js';
import { normaliseLogPath } from '../../src/rules/log-paths.js';
import { addUrlAggregate, botFamily, localDate, type LogAggregate, OPERATOR_OF, parseLogLine, VERIFIED_OPERATORS, pendingClaims, settleVerifications, statusClass, statusRecord, type UrlAggregate } from '../../src/rules/logs.js';

const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

describe('aggregation', () => {
  it('counts humans per day only, keeps Google claims outside the ranges pending, then settles them without addresses, a failed one without its path', () => {
    const { aggregate, add } = createLogAggregator((_op, ip) => ip === '66.249.66.1');
    add(`66.249.66.1 - - [09/Mar/2026:08:00:00 +0000] "GET / HTTP/1.1" 200 10 "-" "${GOOGLEBOT}"`);
    add(`10.0.0.9 - - [09/Mar/2026:08:00:00 +0000] "GET / HTTP/1.1" 200 10 "-" "${GOOGLEBOT}"`);
    add(`10.0.0.7 - - [09/Mar/2026:08:00:00 +0000] "GET /users/jane.doe@example.com?phone=+33699999999 HTTP/1.1" 200 10 "-" "${GOOGLEBOT}"`);
    add('192.0.2.1 - - [09/Mar/2026:08:00:00 +0000] "GET /me HTTP/1.1" 200 10 "-" "Firefox"');
    add('junk');
    expect(aggregate).toMatchObject({ linesRead: 5, kept: 4, refused: 1, humanHits: 1, botHits: 3 });
    expect([...pendingClaims(aggregate)]).toEqual([['10.0.0.9', 'google'], ['10.0.0.7', 'google']]);
    settleVerifications(aggregate, new Set(['10.0.0.9']));
    expect(Object.fromEntries([...aggregate.urls].map(([k, v]) => [k, v.hits]))).toEqual({ 'googlebot\tverified\t/': 2 });
    expect(Object.fromEntries(aggregate.days)).toEqual({ '2026-03-09\tgooglebot\tverified\t2xx': 2, '2026-03-09\tgooglebot\tunverified\t2xx': 1, '2026-03-09\thuman\tnot_applicable\t2xx': 1 });
    expect(JSON.stringify([...aggregate.urls, ...aggregate.days])).not.toMatch(/10\.0\.0|192\.0\.2|\/me|jane|phone/);
  });

  it('read = kept + refused, whatever the lines', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), fc.constant(`1.2.3.4 - - [09/Mar/2026:08:00:00 +0000] "GET / HTTP/1.1" 200 10 "-" "${GOOGLEBOT}"`))), (lines) => {
        const { aggregate, add } = createLogAggregator(() => true);
        for (const line of lines) add(line);
        expect(aggregate.kept + aggregate.refused).toBe(aggregate.linesRead);
        expect(aggregate.humanHits + aggregate.botHits).toBe(aggregate.kept);
      }),
      { numRuns: 200 },
    );
  });

  /** The fold as first written: every line through parseLogLine, string keys (what the fast path must equal). */
  function referenceFold(lines: readonly string[], verify: (ip: string) => boolean) {
    const urls = new Map<string, { hits: number; last: number; statuses: Record<string, number>; bytes: number }>();
    const days = new Map<string, number>();
    const out = { format: null as string | null, linesRead: 0, kept: 0, refused: 0, refusals: [] as { line: number; reason: string }[], humanHits: 0, botHits: 0, from: null as number | null, to: null as number | null };
    for (const raw of lines) {
      if (raw.length === 0 || raw === '\r') continue;
      out.linesRead++;
      const parsed = parseLogLine(raw.endsWith('\r') ? raw.slice(0, -1) : raw);
      if (!parsed.ok) {
        out.refused++;
        if (out.refusals.length < 10) out.refusals.push({ line: out.linesRead, reason: parsed.reason });
        continue;
      }
      out.kept++;
      out.format ??= parsed.format;
      const r = parsed.request;
      if (out.from === null || r.time < out.from) out.from = r.time;
      if (out.to === null || r.time > out.to) out.to = r.time;
      const family = botFamily(r.userAgent);
      const day = localDate(r.time, r.offset);
      if (family === null) {
        out.humanHits++;
        const key = `${day}\thuman\tnot_applicable\t${statusClass(r.status)}`;
        days.set(key, (days.get(key) ?? 0) + 1);
        continue;
      }
      out.botHits++;
      const verification = OPERATOR_OF[family] === undefined ? 'not_applicable' : verify(r.ip) ? 'verified' : `?${r.ip}`;
      const dayKey = `${day}\t${family}\t${verification}\t${statusClass(r.status)}`;
      days.set(dayKey, (days.get(dayKey) ?? 0) + 1);
      const key = `${family}\t${verification}\t${normaliseLogPath(r.path)}`;
      const url = urls.get(key) ?? { hits: 0, last: r.time, statuses: {}, bytes: 0 };
      url.hits++;
      url.last = Math.max(url.last, r.time);
      url.statuses[r.status] = (url.statuses[r.status] ?? 0) + 1;
      url.bytes += r.bytes;
      urls.set(key, url);
    }
    return { ...out, urls: Object.fromEntries(urls), days: Object.fromEntries(days) };
  }

  const comparable = (agg: LogAggregate) => ({
    ...agg,
    urls: Object.fromEntries([...agg.urls].map(([key, v]) => [key, { ...v, statuses: statusRecord(v.statuses) }])),
    days: Object.fromEntries(agg.days),
  });

  // Lines near the Combined format: the fast path must read what it accepts exactly as
  // parseLogLine does, and leave everything else to it.
  const part = (...options: string[]) => fc.constantFrom(...options);
  const logLine = fc
    .tuple(
      part('66.249.66.1', '10.0.0.7', '2001:4860:4801:10::1', '157.55.39.1', '', 'a\tb', 'é'),
      part('- -', 'ident frank', '-'),
      part('10/Oct/2025:13:55:36 -0700', '01/Jan/2026:00:00:00 +0000', '31/Dec/2025:23:59:59 +0130', '99/Foo/2026:00:00:00 +0000', '1/Jan/2026:00:00:00 +0000', '01/Jan/2026:00:00:00 +0000 x', '01-Jan-2026 00:00:00 Z0000', '01/Jan/2026:00:00:00 +00'),
      part('GET /a?b=1 HTTP/1.1', 'HEAD / HTTP/1.0', 'GET http://host/x HTTP/1.1', 'GET /q\\"x HTTP/1.1', '-', 'GET  /double HTTP/1.1', 'GET /only', 'POST /é?ü=1 HTTP/2'),
      part('200', '301', '404', '503', '099', '1000', 'abc'),
      part('2326', '-', '0', '12345678901234567890', '12x'),
      part(' "-" ', ' "http://r/" ', ' "a\\"b" ', '', ' "-"'),
      part(`"${GOOGLEBOT}"`, '"Mozilla/5.0 (compatible; bingbot/2.0)"', '"GPTBot/1.2"', '"Firefox"', '""', '"Bot \\"quoted\\" 1.0"', '"Googlebot-Image/1.0'),
      part('', ' 0.003', '\r', ' "x"'),
    )
    .map(([ip, who, time, request, status, bytes, referer, agent, tail]) => `${ip} ${who} [${time}] "${request}" ${status} ${bytes}${referer}${referer ? agent : ''}${tail}`);
  const lines = fc.array(fc.oneof({ weight: 8, arbitrary: logLine }, { weight: 1, arbitrary: fc.string() }, { weight: 1, arbitrary: fc.constant('{"time": 1767323045, "path": "/j", "status": 200, "ua": "GPTBot"}') }), { maxLength: 40 });
  const verifyIp = (ip: string) => ip.startsWith('66.249.') || ip.startsWith('157.55.');

  it('reads every line as the reference parser does (the fast path changes nothing)', () => {
    fc.assert(
      fc.property(lines, (input) => {
        const { aggregate, add } = createLogAggregator((_op, ip) => verifyIp(ip));
        for (const line of input) add(line);
        expect(comparable(aggregate)).toEqual(referenceFold(input, verifyIp));
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 500) },
    );
  });

  it('settles claims in place as settleVerifications does, and lists them as pendingClaims does', () => {
    fc.assert(
      fc.property(lines, fc.boolean(), (input, verifyFirst) => {
        const aggregator = createLogAggregator((_op, ip) => verifyIp(ip));
        for (const line of input) aggregator.add(line);
        const reference = aggregator.result();
        expect(aggregator.claims(500)).toEqual([...pendingClaims(reference)]);
        const verified = new Set(verifyFirst ? aggregator.claims(1).map(([ip]) => ip) : []);
        settleVerifications(reference, verified);
        aggregator.settle(verified);
        expect(comparable(aggregator.aggregate)).toEqual(comparable(reference));
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 500) },
    );
  });

  /** What a store adding up spilled parts holds: one statistic per `family \t verification \t path`. */
  const addUp = (into: Map<string, UrlAggregate>, entries: Iterable<[string, string, string, UrlAggregate]>) => {
    for (const [family, verification, path, value] of entries) {
      const key = `${family}\t${verification}\t${path}`;
      const prior = into.get(key);
      if (prior) addUrlAggregate(prior, value);
      else into.set(key, { ...value, statuses: [...value.statuses] });
    }
  };

  it('spilled at any lines and added up, gives what the whole file gives (the store adds the parts)', () => {
    fc.assert(
      fc.property(lines, fc.array(fc.nat(), { maxLength: 5 }), fc.boolean(), (input, cuts, verifyFirst) => {
        const whole = createLogAggregator((_op, ip) => verifyIp(ip));
        for (const line of input) whole.add(line);
        const verified = new Set(verifyFirst ? whole.claims(1).map(([ip]) => ip) : []);
        whole.settle(verified);
        const spilling = createLogAggregator((_op, ip) => verifyIp(ip));
        const stored = new Map<string, UrlAggregate>();
        const at = new Set(cuts.map((c) => c % (input.length + 1)));
        input.forEach((line, i) => {
          if (at.has(i)) addUp(stored, spilling.spill());
          spilling.add(line);
        });
        // Claims are never spilled while they wait: settled, they go with the last part.
        const beforeSettling = [...spilling.spill()];
        expect(beforeSettling.filter(([, verification]) => verification.startsWith('?'))).toEqual([]);
        addUp(stored, beforeSettling);
        spilling.settle(verified);
        addUp(stored, spilling.spill());
        expect(spilling.heldSettled()).toBe(0);
        expect(comparable({ ...whole.result(), urls: stored, days: spilling.aggregate.days })).toEqual(comparable(whole.result()));
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 500) },
    );
  });

  it('settles an address when its answer comes as settle does at the end, its later claims as they come', () => {
    fc.assert(
      fc.property(lines, fc.nat(), fc.boolean(), (input, when, verifyAll) => {
        const verified = (ip: string) => verifyAll || ip.endsWith('.7');
        const atEnd = createLogAggregator((_op, ip) => verifyIp(ip));
        for (const line of input) atEnd.add(line);
        const asked: string[] = [];
        const asTheyCome = createLogAggregator((_op, ip) => verifyIp(ip), { onClaim: (ip) => asked.push(ip) });
        const answerAt = when % (input.length + 1);
        input.forEach((line, i) => {
          if (i === answerAt) for (const ip of asked) asTheyCome.decide(ip, verified(ip));
          asTheyCome.add(line);
        });
        expect(asked).toEqual([...new Set(asked)]);
        expect(asked.sort()).toEqual(atEnd.claims(Infinity).map(([ip]) => ip).sort());
        const all = new Set(asked.filter(verified));
        atEnd.settle(all);
        asTheyCome.settle(all);
        expect(asTheyCome.heldPending()).toBe(0);
        expect(comparable(asTheyCome.aggregate)).toEqual(comparable(atEnd.aggregate));
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 500) },
    );
  });

  it('asks about at most maxClaims addresses, the first met; claims from any other address are unverified at once; unverified claims keep day counts only', () => {
    const line = (ip: string, path: string) => `${ip} - - [09/Mar/2026:08:00:00 +0000] "GET ${path} HTTP/1.1" 200 10 "-" "${GOOGLEBOT}"`;
    const asked: string[] = [];
    const { add, aggregate, heldPending, decide } = createLogAggregator((_op, ip) => ip === '66.249.66.1', { maxClaims: 2, onClaim: (ip) => asked.push(ip) });
    for (const [ip, path] of [['10.0.0.1', '/a'], ['66.249.66.1', '/a'], ['10.0.0.2', '/b'], ['10.0.0.3', '/c'], ['10.0.0.1', '/d'], ['10.0.0.4', '/c']]) add(line(ip, path));
    expect(asked).toEqual(['10.0.0.1', '10.0.0.2']);
    expect(heldPending()).toBe(3);
    decide('10.0.0.1', true);
    decide('10.0.0.2', false);
    decide('10.0.0.9', true); // never asked about: nothing changes
    add(line('10.0.0.1', '/e'));
    expect(heldPending()).toBe(0);
    expect(Object.fromEntries([...aggregate.urls].map(([k, v]) => [k, v.hits]))).toEqual({
      'googlebot\tverified\t/a': 2,
      'googlebot\tverified\t/d': 1,
      'googlebot\tverified\t/e': 1,
    });
    expect(Object.fromEntries(aggregate.days)).toEqual({ '2026-03-09\tgooglebot\tverified\t2xx': 4, '2026-03-09\tgooglebot\tunverified\t2xx': 3 });
  });

  it('checks the claims of operators without published ranges only when asked to; past maxClaims they are taken on their word, not unverified', () => {
    const APPLEBOT = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)';
    const line = (ip: string, path: string, ua: string) => `${ip} - - [09/Mar/2026:08:00:00 +0000] "GET ${path} HTTP/1.1" 200 10 "-" "${ua}"`;
    const log = [
      ['17.58.0.1', '/a', APPLEBOT],
      ['17.58.0.2', '/b', APPLEBOT],
      ['203.0.113.9', '/c', APPLEBOT],
      ['10.0.0.5', '/d', GOOGLEBOT],
    ];
    // By default (the mock, a server without reverse DNS): Apple publishes nothing to check against.
    const unchecked = createLogAggregator(() => false, { maxClaims: 1, onClaim: () => expect.unreachable() });
    for (const [ip, path, ua] of log.slice(0, 3)) unchecked.add(line(ip, path, ua));
    expect([...unchecked.aggregate.urls.keys()].sort()).toEqual(['applebot\tnot_applicable\t/a', 'applebot\tnot_applicable\t/b', 'applebot\tnot_applicable\t/c']);

    const asked: string[] = [];
    const checked = createLogAggregator(() => false, { maxClaims: 1, operators: VERIFIED_OPERATORS, onClaim: (ip, operator) => asked.push(`${operator} ${ip}`) });
    for (const [ip, path, ua] of log) checked.add(line(ip, path, ua));
    expect(asked).toEqual(['apple 17.58.0.1']);
    checked.decide('17.58.0.1', true);
    expect(Object.fromEntries([...checked.aggregate.urls].map(([k, v]) => [k, v.hits]))).toEqual({
      'applebot\tverified\t/a': 1,
      // Past the lookups: not checked, so taken on the user agent's word, as with no reverse DNS.
      'applebot\tnot_applicable\t/b': 1,
      'applebot\tnot_applicable\t/c': 1,
    });
    // A Google claim past the lookups is outside the published ranges: unverified, no path.
    expect(Object.fromEntries(checked.aggregate.days)).toEqual({
      '2026-03-09\tapplebot\tverified\t2xx': 1,
      '2026-03-09\tapplebot\tnot_applicable\t2xx': 2,
      '2026-03-09\tgooglebot\tunverified\t2xx': 1,
    });
    expect([...checked.spill()].map(([family, verification, path]) => `${family} ${verification} ${path}`).sort()).toEqual([
      'applebot not_applicable /b',
      'applebot not_applicable /c',
      'applebot verified /a',
    ]);
  });

  it('weighs what it holds by path length, so a log of long paths spills as often as its memory needs', () => {
    const { add, heldSettled, heldPending, spill } = createLogAggregator((_op, ip) => ip === '66.249.66.1');
    const line = (ip: string, path: string) => `${ip} - - [09/Mar/2026:08:00:00 +0000] "GET ${path} HTTP/1.1" 200 10 "-" "${GOOGLEBOT}"`;
    add(line('66.249.66.1', '/short'));
    add(line('66.249.66.1', '/short'));
    add(line('66.249.66.1', `/${'x'.repeat(299)}`));
    add(line('10.0.0.1', `/${'y'.repeat(127)}`));
    expect([heldSettled(), heldPending()]).toEqual([1 + 3, 2]);
    expect([...spill()].map(([, , path, value]) => [path.length, value.hits])).toEqual([[6, 2], [300, 1]]);
    expect([heldSettled(), heldPending()]).toEqual([0, 2]);
  });

  it('gives the same aggregate from parts of a file merged as from the whole file (the parse threads)', () => {
    fc.assert(
      fc.property(lines, fc.array(fc.nat(), { maxLength: 3 }), (input, cuts) => {
        const whole = createLogAggregator((_op, ip) => verifyIp(ip));
        for (const line of input) whole.add(line);
        const bounds = [0, ...cuts.map((c) => c % (input.length + 1)).sort((a, b) => a - b), input.length];
        const parts = bounds.slice(1).map((end, i) => {
          const one = createLogAggregator((_op, ip) => verifyIp(ip));
          for (const line of input.slice(bounds[i], end)) one.add(line);
          return one.result();
        });
        expect(comparable(mergeAggregates(parts))).toEqual(comparable(whole.result()));
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 300) },
    );
  });
});

