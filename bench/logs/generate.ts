/**
 * A realistic access log in the Combined Log Format, gzipped, for bench/logs: four weeks of a
 * shop's traffic, in time order. Deterministic (seeded), so two runs parse the same bytes.
 *
 * - Humans (~72%): browser user agents, random addresses, pages, assets and searches.
 * - Googlebot (desktop, smartphone, image) and Bingbot from addresses inside the ranges Google and
 *   Bing publish (the copies in packages/server/src/modules/logs/ranges), so they verify.
 * - Fake Googlebots from other addresses (they must end `unverified`).
 * - AI crawlers (GPTBot, ClaudeBot, CCBot, PerplexityBot, OAI-SearchBot, ChatGPT-User), Applebot,
 *   YandexBot, Baiduspider, and SEO tools that count as humans (AhrefsBot, SemrushBot).
 * - Many distinct URLs (products, categories with parameters, junk), statuses with redirects,
 *   304s, 404/410 and some 5xx.
 */
import { createWriteStream } from 'node:fs';
import { createGzip } from 'node:zlib';
import bingbot from '../../packages/server/src/modules/logs/ranges/bingbot.json';
import googlebot from '../../packages/server/src/modules/logs/ranges/googlebot.json';
import { seededRandom as random } from '../seeded-random.js';

function ipv4Ranges(file: { prefixes: { ipv4Prefix?: string }[] }): [number, number][] {
  return file.prefixes
    .filter((p) => p.ipv4Prefix)
    .map((p) => {
      const [address, bits] = p.ipv4Prefix!.split('/');
      const start = address.split('.').reduce((n, b) => n * 256 + Number(b), 0);
      return [start, 2 ** (32 - Number(bits))];
    });
}

const ipText = (n: number) => `${(n >>> 24) & 255}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;

const BROWSERS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/1%d.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/1%d.0.0.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_%d like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; Pixel %d) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:1%d.0) Gecko/20100101 Firefox/1%d.0',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_%d) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/1%d.0.0.0 Safari/537.36 Edg/1%d.0.0.0',
];
const HUMAN_UAS = BROWSERS.flatMap((ua) => Array.from({ length: 12 }, (_, i) => ua.replaceAll('%d', String(10 + i))));
HUMAN_UAS.push('Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)', 'Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)', 'curl/8.5.0', '-');

const UA = {
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  googlebotSmartphone:
    'Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.126 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  googlebotImage: 'Googlebot-Image/1.0',
  bingbot: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36',
  gptbot: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
  claudebot: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
  ccbot: 'CCBot/2.0 (https://commoncrawl.org/faq/)',
  perplexity: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)',
  oaiSearch: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot',
  chatgptUser: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot',
  applebot: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)',
  yandex: 'Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)',
  baidu: 'Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)',
};

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => (n < 10 ? `0${n}` : String(n));

/** `%t` in UTC+01:00, as a French server writes it. */
function clfTime(ms: number): string {
  const d = new Date(ms + 3_600_000);
  return `${pad(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +0100`;
}

export interface GenerateOptions {
  lines: number;
  file: string;
  /** Distinct product pages (the catalogue); categories, assets and junk come on top. */
  products?: number;
  days?: number;
  seed?: number;
}

export interface Generated {
  lines: number;
  bytes_uncompressed: number;
}

export async function generateLog({ lines, file, products = 100_000, days = 28, seed = 29 }: GenerateOptions): Promise<Generated> {
  const rnd = random(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rnd() * list.length)];
  const google = ipv4Ranges(googlebot);
  const bing = ipv4Ranges(bingbot);
  const inRange = (ranges: [number, number][]) => {
    const [start, size] = pick(ranges);
    return ipText(start + Math.floor(rnd() * size));
  };
  // Client addresses outside Google's and Bing's ranges (documentation and private blocks do not
  // matter to the parser; 80.x-95.x look like European ISPs).
  const humanIp = () => ipText(((80 + Math.floor(rnd() * 16)) << 24) + Math.floor(rnd() * 0xffffff));
  // Popularity is skewed: the square of a uniform favours low product numbers.
  const product = () => Math.floor(rnd() * rnd() * products);
  const categories = ['chaussures', 'vestes', 'pantalons', 'accessoires', 'sacs', 'montres', 'lunettes', 'chemises', 'robes', 'pulls'];
  const page = (): string => {
    const r = rnd();
    if (r < 0.55) {
      const id = product();
      return `/produits/${id}-article-${id % 97}`;
    }
    if (r < 0.75) {
      const c = `/categorie/${pick(categories)}/${Math.floor(rnd() * 40)}`;
      const q = rnd();
      return q < 0.5 ? c : q < 0.8 ? `${c}?page=${Math.floor(rnd() * 30)}` : `${c}?sort=${pick(['prix', 'nouveau', 'note'])}&couleur=${pick(['noir', 'bleu', 'rouge', 'vert'])}`;
    }
    if (r < 0.8) return '/';
    if (r < 0.85) return `/recherche?q=${pick(categories)}+${Math.floor(rnd() * 5000)}`;
    if (r < 0.9) return `/blog/${Math.floor(rnd() * 2000)}-article`;
    if (r < 0.95) return `/ancien/${Math.floor(rnd() * 50_000)}.html`;
    return `/wp-login.php?redirect_to=%2F${Math.floor(rnd() * 100)}`;
  };
  const asset = () => `/static/${pick(['app', 'vendor', 'styles', 'logo', 'hero'])}.${Math.floor(rnd() * 200)}.${pick(['js', 'css', 'png', 'webp'])}`;
  const status = (path: string): number => {
    if (path.startsWith('/ancien/')) return rnd() < 0.7 ? 301 : 410;
    if (path.startsWith('/wp-login')) return 404;
    const r = rnd();
    return r < 0.86 ? 200 : r < 0.9 ? 304 : r < 0.93 ? 302 : r < 0.96 ? 301 : r < 0.985 ? 404 : r < 0.995 ? 500 : 503;
  };

  const start = Date.UTC(2026, 9, 1);
  const span = days * 86_400_000;
  const out = createGzip({ level: 6 });
  const done = new Promise<void>((resolve, reject) => {
    const sink = createWriteStream(file);
    out.pipe(sink);
    sink.on('finish', resolve);
    sink.on('error', reject);
    out.on('error', reject);
  });
  let bytes = 0;
  let buffer = '';
  for (let i = 0; i < lines; i++) {
    // Time order with a little jitter, as a server writes its log.
    const time = start + Math.floor((i / lines) * span + rnd() * 1000);
    let ip: string;
    let ua: string;
    let path: string;
    const r = rnd();
    if (r < 0.72) {
      ip = humanIp();
      ua = pick(HUMAN_UAS);
      path = rnd() < 0.35 ? asset() : page();
    } else {
      path = page();
      if (r < 0.8) [ip, ua] = [inRange(google), rnd() < 0.6 ? UA.googlebotSmartphone : UA.googlebot];
      else if (r < 0.81) [ip, ua] = [inRange(google), UA.googlebotImage];
      else if (r < 0.85) [ip, ua] = [inRange(bing), UA.bingbot];
      else if (r < 0.87) [ip, ua] = [humanIp(), pick([UA.googlebot, UA.googlebotSmartphone, UA.bingbot])];
      else if (r < 0.93) [ip, ua] = [humanIp(), pick([UA.gptbot, UA.claudebot, UA.ccbot, UA.perplexity, UA.oaiSearch, UA.chatgptUser])];
      else [ip, ua] = [humanIp(), pick([UA.applebot, UA.yandex, UA.baidu, HUMAN_UAS[HUMAN_UAS.length - 4], HUMAN_UAS[HUMAN_UAS.length - 3]])];
    }
    const code = status(path);
    const size = code === 304 || code === 301 || code === 302 ? 0 : 500 + Math.floor(rnd() * 60_000);
    const referer = rnd() < 0.5 ? '-' : `https://boutique.example${page()}`;
    const line = `${ip} - - [${clfTime(time)}] "${rnd() < 0.97 ? 'GET' : 'HEAD'} ${path} HTTP/1.1" ${code} ${size === 0 ? '-' : size} "${referer}" "${ua}"\n`;
    buffer += line;
    if (buffer.length > 1 << 20) {
      bytes += buffer.length;
      if (!out.write(buffer)) await new Promise((resolve) => out.once('drain', resolve));
      buffer = '';
    }
  }
  bytes += buffer.length;
  out.end(buffer);
  await done;
  return { lines, bytes_uncompressed: bytes };
}
