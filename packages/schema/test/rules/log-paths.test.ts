/** Request targets as the server resolved them (log-paths.ts): RFC 3986 normalisation, `//` kept, log escapes decoded. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { joinPath } from '../../src/rules/log-analysis.js';
import { CREDENTIAL_NAMES, decodeLogEscapes, foldName, normaliseLogPath, redactCredentials, redactTokens, removeDotSegments } from '../../src/rules/log-paths.js';
import { parseLogLine } from '../../src/rules/logs.js';

describe('normaliseLogPath', () => {
  it('decodes escapes of unreserved characters, upper-cases the others, removes dot segments, keeps //', () => {
    expect(normaliseLogPath('/a%2Db.html')).toBe('/a-b.html');
    expect(normaliseLogPath('/a%2db.html')).toBe('/a-b.html');
    expect(normaliseLogPath('/%7et.html')).toBe('/~t.html');
    expect(normaliseLogPath('/%78/page.html')).toBe('/x/page.html');
    expect(normaliseLogPath('/a%5cb.html')).toBe('/a%5Cb.html');
    expect(normaliseLogPath('/caf%c3%a9.html')).toBe('/caf%C3%A9.html');
    expect(normaliseLogPath('/café.html')).toBe('/caf%C3%A9.html');
    expect(normaliseLogPath('/x%2Fpage.html')).toBe('/x%2Fpage.html');
    expect(normaliseLogPath('/x/../page.html')).toBe('/page.html');
    expect(normaliseLogPath('/x/./page.html')).toBe('/x/page.html');
    expect(normaliseLogPath('/x/%2E%2E/page.html')).toBe('/page.html');
    expect(normaliseLogPath('/x/..')).toBe('/');
    expect(normaliseLogPath('/../../a')).toBe('/a');
    expect(normaliseLogPath('//x/page.html')).toBe('//x/page.html');
    expect(normaliseLogPath('/a b|c')).toBe('/a%20b%7Cc');
    expect(normaliseLogPath('/100%')).toBe('/100%25');
    expect(normaliseLogPath('/.well-known/x')).toBe('/.well-known/x');
    expect(normaliseLogPath('/p?q=%7e&r=/../x&s=%2f')).toBe('/p?q=~&r=/../x&s=%2F');
    expect(normaliseLogPath('/plain/path?a=1&b=2')).toBe('/plain/path?a=1&b=2');
  });

  it('removes dot segments as RFC 3986 5.2.4 does', () => {
    expect(removeDotSegments('/a/b/c/./../../g')).toBe('/a/g');
    expect(removeDotSegments('/mid/content=5/../6')).toBe('/mid/6');
    expect(removeDotSegments('/a/b/.')).toBe('/a/b/');
    expect(removeDotSegments('/a//b/../c')).toBe('/a//c');
  });

  // Hostile input: any text after the slash.
  const target = fc.string({ unit: fc.oneof(fc.constantFrom('/', '.', '%', '?', '#', '\\', 'a', 'Z', '2', 'e', 'é', '~', ' ', '"', '+', '%2D', '%2d', '%5c', '%7E', '%C3%A9', '../', './', '//'), fc.string({ maxLength: 1 })), maxLength: 40 }).map((s) => `/${s}`);

  it('never throws, is idempotent, starts with "/" and leaves only characters a URI holds raw', () => {
    fc.assert(
      fc.property(target, (t) => {
        const n = normaliseLogPath(t);
        expect(n.startsWith('/')).toBe(true);
        expect(normaliseLogPath(n)).toBe(n);
        expect(n).toMatch(/^[A-Za-z0-9\-._~!$&'()*+,;=:@/?%]*$/);
        // Every % starts an escape of a reserved or non-ASCII byte, in upper case.
        for (const m of n.matchAll(/%(..)/g)) expect(m[1]).toMatch(/^[0-9A-F]{2}$/);
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 500) },
    );
  });

  it('gives one string for every spelling of one target (unreserved characters escaped or not, escapes in either case)', () => {
    const unreserved = fc.constantFrom(...'abcXYZ019-._~');
    const segment = fc.array(unreserved, { minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 4 }), fc.array(fc.boolean(), { minLength: 30, maxLength: 30 }), fc.array(fc.boolean(), { minLength: 30, maxLength: 30 }), (segments, escaped, lower) => {
        const plain = '/' + segments.map((s) => s.join('')).join('/');
        let k = 0;
        const spelled =
          '/' +
          segments
            .map((s) =>
              s
                .map((c) => {
                  const i = k++ % 30;
                  if (!escaped[i]) return c;
                  const hex = c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0');
                  return `%${lower[i] ? hex.toLowerCase() : hex}`;
                })
                .join(''),
            )
            .join('/');
        // A segment of dots only is a dot segment either way: compare normalised forms.
        expect(normaliseLogPath(spelled)).toBe(normaliseLogPath(plain));
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 500) },
    );
  });
});

describe('e-mail addresses', () => {
  it('are replaced by (email) in the path and the query, raw or escaped, and nothing else is', () => {
    expect(normaliseLogPath('/users/frank@example.com/profile')).toBe('/users/(email)/profile');
    expect(normaliseLogPath('/p?email=bob%40example.com&tab=2')).toBe('/p?email=(email)&tab=2');
    expect(normaliseLogPath('/p?e=jane%2Bshop%40Example.ORG')).toBe('/p?e=(email)');
    expect(normaliseLogPath('/x?to=a.b-c_d@sub.example.co.uk')).toBe('/x?to=(email)');
    expect(normaliseLogPath('/img/logo@2x.png')).toBe('/img/logo@2x.png');
    expect(normaliseLogPath('/@jane')).toBe('/@jane');
    expect(normaliseLogPath('/a%40b')).toBe('/a%40b');
    expect(normaliseLogPath(normaliseLogPath('/u/x%40example.com'))).toBe('/u/(email)');
    // An address never starts inside an escape: the escape stays whole, and normalising again changes nothing.
    expect(normaliseLogPath('/#@state.com')).toBe('/%23@state.com');
    expect(normaliseLogPath('/caf%C3%A9jane@example.com')).toBe('/caf%C3%A9(email)');
  });

  it('leave a crawled URL with one joined with the logged path (both sides are normalised alike)', () => {
    expect(joinPath('https://shop.example/users/frank@example.com/profile')).toBe(joinPath(normaliseLogPath('/users/frank%40example.com/profile')));
  });
});

describe('credential, session and phone parameters', () => {
  it('keep their name and lose their value, in every path (crawlers included), whatever the spelling of the name', () => {
    const cases: [string, string][] = [
      ['/p?PHPSESSID=9h3kq0v1&page=2', '/p?PHPSESSID=(redacted)&page=2'],
      ['/shop/cart;jsessionid=0A1B2C3D4E?x=1', '/shop/cart;jsessionid=(redacted)?x=1'],
      ['/x;JSESSIONID=abc/y;phpsessid=def', '/x;JSESSIONID=(redacted)/y;phpsessid=(redacted)'],
      ['/forum/viewtopic.php?t=12&sid=5f3a9c0d', '/forum/viewtopic.php?t=12&sid=(redacted)'],
      ['/a?session_id=xyz&Session-ID=q&sessionId=r', '/a?session_id=(redacted)&Session-ID=(redacted)&sessionId=(redacted)'],
      ['/a?osCsid=1&zenid=2&CFID=3&CFTOKEN=4&ASPSESSIONIDQQGGGTRB=5&s_id=6', '/a?osCsid=(redacted)&zenid=(redacted)&CFID=(redacted)&CFTOKEN=(redacted)&ASPSESSIONIDQQGGGTRB=(redacted)&s_id=(redacted)'],
      ['/a?token=abc%3D%3D&x=1', '/a?token=(redacted)&x=1'],
      ['/a?access_token=z&id_token=y&refresh_token=w&_token=v', '/a?access_token=(redacted)&id_token=(redacted)&refresh_token=(redacted)&_token=(redacted)'],
      ['/a?api_key=1&apikey=2&key=3&monkey=4&keyword=5', '/a?api_key=(redacted)&apikey=(redacted)&key=(redacted)&monkey=4&keyword=5'],
      ['/wp-login.php?action=rp&key=Xq3vB8pL2mZ&login=shop', '/wp-login.php?action=rp&key=(redacted)&login=shop'],
      ['/a?password=a+b&pwd=c&pass=d%20e', '/a?password=(redacted)&pwd=(redacted)&pass=(redacted)'],
      ['/a?auth=x&signature=y&sig=z', '/a?auth=(redacted)&signature=(redacted)&sig=(redacted)'],
      [
        '/f.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAEXAMPLE%2F20261130%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20261130T000000Z&X-Amz-Expires=900&X-Amz-Security-Token=FwoG&X-Amz-Signature=3f9a',
        '/f.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=(redacted)&X-Amz-Date=20261130T000000Z&X-Amz-Expires=900&X-Amz-Security-Token=(redacted)&X-Amz-Signature=(redacted)',
      ],
      ['/oauth/callback?code=4%2F0Adeu5B&state=af0ifjsldkj&scope=email', '/oauth/callback?code=(redacted)&state=(redacted)&scope=email'],
      ['/a?secret=1&client_secret=1&otp=2&reset=3&phone=%2B33612345678&tel=0612345678', '/a?secret=(redacted)&client_secret=(redacted)&otp=(redacted)&reset=(redacted)&phone=(redacted)&tel=(redacted)'],
      ['/a?email=bob%40example.com&token=bob%40example.com', '/a?email=(email)&token=(redacted)'],
      ['/a?user%5Bpassword%5D=hunter2', '/a?user%5Bpassword%5D=(redacted)'],
      // A fragment a client sent (escaped by normalisation), a URL in a value, an escaped "=", ";" between parameters.
      ['/a?x=1#access_token=abc', '/a?x=1%23access_token=(redacted)'],
      ['/login?next=%2Fcb%3Faccess_token%3Dabc%26y%3D1', '/login?next=%2Fcb%3Faccess_token%3D(redacted)%26y%3D1'],
      ['/login?next=%2Fcb%3Fcode%3DX1%26state%3DY2', '/login?next=%2Fcb%3Fcode%3D(redacted)%26state%3D(redacted)'],
      ['/a?Token%3Dabc', '/a?Token%3D(redacted)'],
      ['/a?x=1;sid=2', '/a?x=1;sid=(redacted)'],
      // ASP.NET's cookieless session in the path.
      ['/(S(lit3py55t21z5v55vlm25s55))/default.aspx', '/(S((redacted)))/default.aspx'],
      ['/(A(x1)S(y2))/p.aspx?t=1', '/(A((redacted))S((redacted)))/p.aspx?t=1'],
    ];
    for (const [target, stored] of cases) {
      expect(normaliseLogPath(target), target).toBe(stored);
      expect(normaliseLogPath(stored)).toBe(stored);
    }
  });

  it('leave other parameters, an empty value, `code` without `state`, and names that merely contain a listed one', () => {
    for (const target of [
      '/a?q=shoes&page=2&sort=price',
      '/a?token=&sid=',
      '/promo?code=SUMMER20',
      '/a?state=open',
      '/a?monkey=1&keyword=2&tokens_count=3&passage=4&session_date=5',
      '/users/(email)/x',
      '/(token)/x',
      '/a;b=c/d',
      '/img/logo.png;v=2',
      '/app.css?v=3f9a1c2b7d4e8f60',
    ])
      expect(normaliseLogPath(target), target).toBe(target);
  });

  it('leave the crawl joined with the logged path (both sides are normalised alike)', () => {
    expect(joinPath('https://shop.example/cart;jsessionid=0A1B2C?x=1')).toBe(joinPath(normaliseLogPath('/cart;jsessionid=FFFF?x=1')));
    expect(joinPath('https://shop.example/p?PHPSESSID=abc&page=2#top')).toBe(normaliseLogPath('/p?phpsessid=def&page=2'.replace('phpsessid', 'PHPSESSID')));
  });

  const listedNames = [...CREDENTIAL_NAMES, 'access_token', 'X-Amz-Signature', 'X-Amz-Credential', 'X-Amz-Security-Token', 'client_secret', 'csrf_token', 'user[password]', 'x-api-key'];
  /** A name spelled any way a client may: each letter in either case, some characters percent-escaped (in either case), punctuation between some. */
  const spelled = (name: string) =>
    fc.array(fc.constantFrom('plain', 'plain', 'upper', 'escaped', 'escapedLower', '_', '-', '.', '%5B'), { minLength: name.length, maxLength: name.length }).map((ways) =>
      [...name]
        .map((c, i) => {
          const hex = c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0');
          const way = ways[i];
          if (way === 'upper') return c.toUpperCase();
          if (way === 'escaped') return `%${hex}`;
          if (way === 'escapedLower') return `%${hex.toLowerCase()}`;
          return way === 'plain' || i === 0 ? c : `${way}${c}`;
        })
        .join(''),
    );
  /** What a value may hold besides a separator of its level. */
  const valueChar = fc.constantFrom('a', 'Z', '0', '9', '-', '.', '_', '~', '+', '%2B', '%3D', '%20', '%2F', ':', '%C3%A9', 'é', ' ');
  const middle = fc.array(valueChar, { maxLength: 8 }).map((a) => a.join(''));
  /** Names no list holds, folded or not. */
  const otherName = fc.constantFrom('page', 'q', 'sort', 'utm_source', 'lang', 'id', 'monkey', 'keyword', 'tokens_count', 'Session_Date', 'code', 'v', 'passage');

  it('never keeps any value of a listed parameter: names in any case or escaped, values with %3D or +, repeated, empty, in a fragment or a path parameter', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ name: fc.constantFrom(...listedNames).chain(spelled), value: middle, empty: fc.boolean(), kind: fc.constantFrom('query', 'query', 'fragment', 'path', 'escapedEquals') }), { minLength: 1, maxLength: 5 }),
        fc.array(fc.record({ name: otherName, value: middle }), { maxLength: 4 }),
        fc.boolean(),
        (listed, others, repeat) => {
          const secrets: string[] = [];
          const query: string[] = others.map((o) => `${o.name}=${o.value}`);
          const segments = ['shop', 'cart'];
          let fragment = '';
          const all = repeat ? [...listed, ...listed] : listed;
          all.forEach((p, i) => {
            // A secret's two ends are marked: neither may be kept, nor what lies between.
            const value = p.empty ? '' : `9Q${i}J${p.value}J${i}Q9`;
            if (!p.empty) secrets.push(`9Q${i}J`, `J${i}Q9`);
            if (p.kind === 'query') query.splice(i % (query.length + 1), 0, `${p.name}=${value}`);
            else if (p.kind === 'escapedEquals') query.push(`${p.name}%3D${value}`);
            else if (p.kind === 'path') segments[i % 2] += `;${p.name}=${value}`;
            else fragment = `#${p.name}=${value}`;
          });
          const target = `/${segments.join('/')}?${query.join('&')}${fragment}`;
          const stored = normaliseLogPath(target);
          for (const secret of secrets) expect(stored, `${target} → ${stored}`).not.toContain(secret);
          expect(normaliseLogPath(stored)).toBe(stored);
        },
      ),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 500) },
    );
  });

  it('never changes a target without a listed parameter', () => {
    const safeValue = fc.array(fc.constantFrom('a', 'Z', '0', '9', '-', '.', '_', '~', '+', '%2B', '%20', '%2F', ':', '%C3%A9', '(', ')', '@', '!'), { maxLength: 8 }).map((a) => a.join(''));
    const segment = fc.array(fc.constantFrom('a', 'b', 'Z', '1', '-', '.', '_', '~', '%2F', '=', ':', '@'), { minLength: 1, maxLength: 8 }).map((a) => a.join(''));
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 4 }), fc.array(fc.record({ name: otherName, value: safeValue }), { maxLength: 5 }), (segments, params) => {
        const path = normaliseLogPath('/' + segments.join('/'));
        const target = params.length === 0 ? path : `${path}?${params.map((p) => `${p.name}=${p.value}`).join('&')}`;
        expect(redactCredentials(target)).toBe(target);
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 500) },
    );
  });

  it('is idempotent on any text', () => {
    const piece = fc.oneof(fc.constantFrom('/', ';', '?', '&', '=', '#', '%3D', '%26', '%3F', '%23', '%3B', '%253D', '(', ')', 'S(', 'token', 'sid', 'code', 'state', 'Key', 'x', '1', '@', '.com', '(redacted)'), fc.string({ maxLength: 2 }));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const target = '/' + pieces.join('');
        const once = redactCredentials(target);
        expect(redactCredentials(once)).toBe(once);
        const normal = normaliseLogPath(target);
        expect(normaliseLogPath(normal)).toBe(normal);
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 500) },
    );
  });

  it('compares names folded: escapes decoded, case and punctuation ignored', () => {
    expect(foldName('Session-ID')).toBe('sessionid');
    expect(foldName('X-Amz-Signature')).toBe('xamzsignature');
    expect(foldName('access%5Ftoken')).toBe('accesstoken');
    expect(foldName('access%255Ftoken')).toBe('accesstoken');
  });
});

describe('tokens in the path of a fetch a person set off', () => {
  it('are replaced segment by segment; slugs, words and numbers stay', () => {
    expect(redactTokens('/invite/ABCDEF0123456789TOKENPATH')).toBe('/invite/(token)');
    expect(redactTokens('/reset/MQ/5ur-3d2f2f0c9b7e4a6c8d1e/')).toBe('/reset/MQ/(token)/');
    expect(redactTokens('/d/123e4567-e89b-12d3-a456-426614174000/edit')).toBe('/d/(token)/edit');
    for (const path of ['/blog/2026-11-30-my-first-post', '/products/iphone-15-pro-max-256gb', '/p/abcdefghijklmnopqrst', '/p/1234567890123456789', '/caf%C3%A9-tr%C3%A8s-longue-page', '/']) expect(redactTokens(path)).toBe(path);
    expect(redactTokens(redactTokens('/invite/ABCDEF0123456789TOKENPATH'))).toBe('/invite/(token)');
  });
});

describe('log escapes', () => {
  it("reads nginx's \\xHH and Apache's \\\" \\\\ as the bytes sent, so \\x5C is a backslash, not /", () => {
    expect(decodeLogEscapes('/a\\x5Cb.html')).toBe('/a%5Cb.html');
    expect(decodeLogEscapes('/caf\\xC3\\xA9.html')).toBe('/caf%C3%A9.html');
    expect(decodeLogEscapes('/a\\"b')).toBe('/a%22b');
    expect(decodeLogEscapes('/a\\\\b')).toBe('/a%5Cb');
    const line = (path: string) => {
      const parsed = parseLogLine(`127.0.0.1 - - [27/Nov/2026:22:53:02 +0000] "GET ${path} HTTP/1.1" 200 2 "-" "Applebot/0.1"`);
      if (!parsed.ok) throw new Error(parsed.reason);
      return normaliseLogPath(parsed.request.path);
    };
    expect(line('/a\\x5Cb.html')).toBe('/a%5Cb.html');
    expect(line('/a%5cb.html')).toBe('/a%5Cb.html');
    expect(line('/caf\\xC3\\xA9.html')).toBe(line('/caf%c3%a9.html'));
    // In a JSON line the backslash is the client's own.
    const json = parseLogLine(JSON.stringify({ time: '2026-11-27T22:53:02Z', path: '/a\\b.html', status: 200 }));
    expect(json.ok && normaliseLogPath(json.request.path)).toBe('/a%5Cb.html');
  });
});

describe('joinPath', () => {
  it('normalises crawled URLs and logged paths alike, and never reads //x/ as a host', () => {
    expect(joinPath('//x/page.html')).toBe('//x/page.html');
    expect(joinPath('http://127.0.0.1:8080/x/page.html')).toBe('/x/page.html');
    expect(joinPath('http://127.0.0.1:8080/a%5cb.html')).toBe(joinPath('/a\\b.html'));
    expect(joinPath('https://example.com/caf%C3%A9.html')).toBe(joinPath('/café.html'));
    expect(joinPath('https://example.com/%7Et.html')).toBe('/~t.html');
    expect(joinPath('https://example.com/a?b=1#x')).toBe('/a?b=1');
  });
});
