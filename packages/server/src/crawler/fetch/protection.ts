/**
 * Recognises firewall, bot-challenge and captcha pages answered instead of the real page. Their
 * findings are not the page's own (docs/health-score.md: counted apart, never scored): a
 * challenge page has no h1, no description and thin content, and a 403 there is the firewall,
 * not a broken page.
 *
 * A 2xx answer needs a strong sign (a challenge title or Cloudflare's cf-mitigated header), since
 * ordinary pages embed captchas in their forms. A 403/429/503 answer also counts when its body
 * carries a challenge or captcha marker.
 */
export type ProtectionKind = 'challenge' | 'captcha' | 'firewall';

const CHALLENGE_TITLES = [
  /^just a moment/i,
  /^attention required/i,
  /^checking your browser/i,
  /^please wait/i,
  /^ddos-guard/i,
  /^access denied$/i,
  /^human verification/i,
  /^verify(ing)? you are human/i,
  /^one more step/i,
  /^security check/i,
  /^pardon our interruption/i,
];

const STRONG_BODY = [
  /checking (if the site connection is secure|your browser before accessing)/i,
  /enable javascript and cookies to continue/i,
  /cf-browser-verification|cf_chl_|challenge-platform|cf-challenge/i,
  /_incapsula_resource|incapsula incident id/i,
  /px-captcha|perimeterx/i,
  /datadome|geo\.captcha-delivery\.com/i,
  /sucuri website firewall/i,
  /request unsuccessful\. incapsula/i,
  /ddos protection by/i,
];

const CAPTCHA = /g-recaptcha|h-captcha|hcaptcha\.com|recaptcha\/api|turnstile|captcha/i;

export interface ProtectionInput {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  title: string | null;
  /** Start of the body (raw HTML or visible text), a few KB are enough. */
  body: string;
}

function header(headers: ProtectionInput['headers'], name: string): string {
  const v = headers[name];
  return Array.isArray(v) ? v.join(', ') : (v ?? '');
}

/** Returns the kind of protection page, or null for an ordinary answer. */
export function detectProtection(input: ProtectionInput): ProtectionKind | null {
  const { status } = input;
  if (/challenge/i.test(header(input.headers, 'cf-mitigated'))) return 'challenge';
  const title = (input.title ?? '').trim();
  const strongTitle = CHALLENGE_TITLES.some((re) => re.test(title));
  // The body's markers are read only where they can change the verdict: on a 2xx, only under a
  // challenge title (every crawled page is a 2xx, and reading its body for nine markers was
  // 2.5 % of the crawl thread on a templated site).
  const strongBody = () => STRONG_BODY.some((re) => re.test(input.body));
  if (status >= 200 && status < 300) {
    // Ordinary pages do not carry these titles; a short body with a challenge marker is a wall.
    if (strongTitle && (input.body.length < 5_000 || strongBody() || CAPTCHA.test(input.body))) return 'challenge';
    return null;
  }
  if (status === 403 || status === 429 || status === 503) {
    if (strongBody()) return 'challenge';
    if (CAPTCHA.test(input.body)) return 'captcha';
    if (strongTitle) return status === 403 ? 'firewall' : 'challenge';
  }
  return null;
}
