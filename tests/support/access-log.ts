/** Access-log lines in the Combined Log Format, for the log import tests. */
export const USER_AGENTS = {
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  bingbot: 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
  gptbot: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
  browser: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36',
} as const;

/** One request of March 2026 (`day` of the month) at 08:15 UTC, 5120 bytes served. */
export const accessLine = (ip: string, day: number, path: string, status: number, ua: string) =>
  `${ip} - - [${String(day).padStart(2, '0')}/Mar/2026:08:15:00 +0000] "GET ${path} HTTP/1.1" ${status} 5120 "-" "${ua}"`;
