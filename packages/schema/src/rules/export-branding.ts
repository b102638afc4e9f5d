/**
 * Cover branding of an export (docs/decisions/export-branding.md): the agency's name and logo,
 * validated alike by the server and the mock. A logo is a `data:` URL of a PNG or JPEG image of at
 * most BRANDING_LOGO_MAX_BYTES bytes and BRANDING_LOGO_MAX_SIDE pixels a side; the image's own
 * header is read (its signature and dimensions), never trusted from the media type alone.
 */

/** Largest logo, decoded: 256 KiB. */
export const BRANDING_LOGO_MAX_BYTES = 256 * 1024;
/** Largest logo side, in pixels. */
export const BRANDING_LOGO_MAX_SIDE = 4096;
/** Longest agency name, in characters. */
export const BRANDING_NAME_MAX = 80;
/** Longest `logo` field: the base64 of the largest logo and its `data:` prefix. */
export const BRANDING_LOGO_MAX_CHARS = Math.ceil(BRANDING_LOGO_MAX_BYTES / 3) * 4 + 64;

export type LogoType = 'png' | 'jpeg';
export interface Logo {
  type: LogoType;
  bytes: Uint8Array;
  width: number;
  height: number;
}
type Message = { en: string; fr: string };

const DATA_URL = /^data:image\/(png|jpeg|jpg);base64,([A-Za-z0-9+/]*={0,2})$/;

function base64Bytes(text: string): Uint8Array | null {
  if (text.length % 4 !== 0) return null;
  try {
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return null;
  }
}

const u32 = (b: Uint8Array, at: number) => ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;
const u16 = (b: Uint8Array, at: number) => (b[at] << 8) | b[at + 1];

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Width and height from a PNG's IHDR (its first chunk), or null when it is not one. */
function pngSize(b: Uint8Array): { width: number; height: number } | null {
  if (b.length < 33 || PNG_SIGNATURE.some((v, i) => b[i] !== v)) return null;
  if (String.fromCharCode(b[12], b[13], b[14], b[15]) !== 'IHDR') return null;
  return { width: u32(b, 16), height: u32(b, 20) };
}

/** Width and height from a JPEG's start-of-frame marker, or null when it is not one. */
function jpegSize(b: Uint8Array): { width: number; height: number } | null {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return null;
  let at = 2;
  while (at + 9 < b.length) {
    if (b[at] !== 0xff) return null;
    const marker = b[at + 1];
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    const length = u16(b, at + 2);
    // SOF0..SOF15, except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: u16(b, at + 5), width: u16(b, at + 7) };
    }
    if (length < 2) return null;
    at += 2 + length;
  }
  return null;
}

/** The logo a `data:` URL holds, or why it is refused (in English and French). */
export function readLogo(dataUrl: string): Logo | { error: Message } {
  const match = DATA_URL.exec(dataUrl);
  if (!match) return { error: { en: 'Expected a data: URL of a PNG or JPEG image in base64 (data:image/png;base64,…)', fr: 'Une URL data: d’image PNG ou JPEG en base64 est attendue (data:image/png;base64,…)' } };
  const bytes = base64Bytes(match[2]);
  if (!bytes) return { error: { en: 'The logo is not valid base64', fr: 'Le logo n’est pas du base64 valide' } };
  if (bytes.length > BRANDING_LOGO_MAX_BYTES) {
    return { error: { en: `The logo is over ${BRANDING_LOGO_MAX_BYTES / 1024} KiB`, fr: `Le logo dépasse ${BRANDING_LOGO_MAX_BYTES / 1024} Kio` } };
  }
  const type: LogoType = match[1] === 'png' ? 'png' : 'jpeg';
  const size = type === 'png' ? pngSize(bytes) : jpegSize(bytes);
  if (!size) return { error: { en: `The logo is not a ${type.toUpperCase()} image`, fr: `Le logo n’est pas une image ${type.toUpperCase()}` } };
  if (size.width < 1 || size.height < 1 || size.width > BRANDING_LOGO_MAX_SIDE || size.height > BRANDING_LOGO_MAX_SIDE) {
    return { error: { en: `The logo must be 1 to ${BRANDING_LOGO_MAX_SIDE} pixels a side`, fr: `Le logo doit mesurer de 1 à ${BRANDING_LOGO_MAX_SIDE} pixels de côté` } };
  }
  return { type, bytes, ...size };
}

/** Why an agency name is refused, or null: control characters have no place on a cover. */
export function agencyNameProblem(name: string): Message | null {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(name)) return { en: 'The agency name holds control characters', fr: 'Le nom de l’agence contient des caractères de contrôle' };
  return null;
}
