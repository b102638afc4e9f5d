/**
 * Turns HTML bytes into text as they stream in. The charset comes from Content-Type, else from a
 * <meta charset> in the first 1024 bytes (the HTML prescan window), else UTF-8.
 */
const PRESCAN_BYTES = 1024;

export function charsetFromContentType(contentType: string | null): string | null {
  const m = /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType ?? '');
  return m ? m[1] : null;
}

function sniffMetaCharset(head: Buffer): string | null {
  const text = head.toString('latin1');
  const m = /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(text);
  return m ? m[1] : null;
}

function decoderFor(label: string | null): TextDecoder {
  try {
    return new TextDecoder(label ?? 'utf-8');
  } catch {
    return new TextDecoder('utf-8');
  }
}

export class StreamingHtmlDecoder {
  private decoder: TextDecoder | null = null;
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(
    declared: string | null,
    private readonly onText: (text: string) => void,
  ) {
    if (declared) this.decoder = decoderFor(declared);
  }

  write(chunk: Buffer): void {
    if (!this.decoder) {
      this.pending.push(chunk);
      this.pendingBytes += chunk.length;
      if (this.pendingBytes < PRESCAN_BYTES) return;
      this.start();
      return;
    }
    const text = this.decoder.decode(chunk, { stream: true });
    if (text) this.onText(text);
  }

  end(): void {
    if (!this.decoder) this.start();
    const text = this.decoder!.decode();
    if (text) this.onText(text);
  }

  private start(): void {
    const head = Buffer.concat(this.pending);
    this.pending = [];
    this.decoder = decoderFor(sniffMetaCharset(head.subarray(0, PRESCAN_BYTES)));
    const text = this.decoder.decode(head, { stream: true });
    if (text) this.onText(text);
  }
}

export function isHtmlContentType(contentType: string | null): boolean {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  return type === 'text/html' || type === 'application/xhtml+xml';
}
