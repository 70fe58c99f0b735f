/**
 * The few values of the layout that end up somewhere JSX escaping alone does not protect: URLs (an escaped
 * `javascript:` URL still runs), colours written into a `<style>` element, the language tag, and the emoji
 * favicon (SVG inside a data: URL). Upstream already validated them; these checks are the last line.
 */

/** A colour as the customization stores it. Anything else is dropped, never written into CSS. */
const HEX_COLOR = /^#[0-9a-fA-F]{3,8}$/;

/** `#rgb`, `#rgba`, `#rrggbb` or `#rrggbbaa` (the lengths CSS reads), else null. */
export function safeColor(value: unknown): string | null {
  if (typeof value !== 'string' || !HEX_COLOR.test(value)) return null;
  return [4, 5, 7, 9].includes(value.length) ? value.toLowerCase() : null;
}

const SAFE_SCHEMES = new Set(['http', 'https', 'mailto', 'tel']);

/** What a browser ignores when it reads a URL's scheme: ASCII whitespace and control characters. */
const IGNORED_IN_SCHEME = /[\u0000-\u0020\u007f-\u009f]/g;

function schemeOf(url: string): string | null {
  const match = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(url.replace(IGNORED_IN_SCHEME, ''));
  return match ? match[1].toLowerCase() : null;
}

/**
 * An href to draw: relative URLs, `http(s):`, `mailto:` and `tel:` as given (trimmed); anything else —
 * `javascript:`, `data:`, `vbscript:`, however disguised with whitespace or case — becomes `#`.
 */
export function safeHref(href: string | null | undefined): string {
  if (typeof href !== 'string') return '#';
  const trimmed = href.trim();
  if (!trimmed) return '#';
  const scheme = schemeOf(trimmed);
  return scheme === null || SAFE_SCHEMES.has(scheme) ? trimmed : '#';
}

/** An absolute http(s) URL (OpenGraph and Twitter images), else null. */
export function safeAbsoluteUrl(url: string | null | undefined): string | null {
  if (typeof url !== 'string') return null;
  const trimmed = url.trim();
  const scheme = schemeOf(trimmed);
  return scheme === 'http' || scheme === 'https' ? trimmed : null;
}

/** An image source: relative, http(s) or a `data:image/…` URL (images cannot run script), else null. */
export function safeImageSrc(src: string | null | undefined): string | null {
  if (typeof src !== 'string') return null;
  const trimmed = src.trim();
  if (!trimmed) return null;
  const scheme = schemeOf(trimmed);
  if (scheme === null || scheme === 'http' || scheme === 'https') return trimmed;
  return /^data:image\/(png|gif|jpeg|webp|avif|svg\+xml|x-icon|vnd\.microsoft\.icon)[;,]/i.test(trimmed) ? trimmed : null;
}

/** A BCP 47 language tag (`en`, `pt-BR`, `zh-Hant-TW`), else null. */
export function safeLang(lang: string | null | undefined): string | null {
  if (typeof lang !== 'string') return null;
  return /^[a-zA-Z]{2,8}(-[a-zA-Z0-9]{1,8})*$/.test(lang) ? lang : null;
}

/** Whether a string is (probably) an emoji rather than an icon name such as `book-open`. */
export function isEmoji(value: string | null | undefined): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= 16 && /\p{Extended_Pictographic}|\p{Regional_Indicator}/u.test(value) && !/[a-zA-Z0-9<>&"']/.test(value);
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** An emoji favicon: an SVG drawing the emoji, as a percent-encoded data: URL (the emoji escaped for XML first). */
export function emojiFaviconUrl(emoji: string): string {
  const text = Array.from(emoji).slice(0, 8).join('').replace(/[&<>"']/g, (c) => XML_ESCAPES[c]);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><text y=".9em" font-size="90">${text}</text></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

/**
 * A GET form's target: browsers drop the query of a GET form's `action` when they submit it, so a query
 * the URL carries (a share key, say) is split off and drawn as hidden fields.
 */
export function formTarget(href: string): { action: string; fields: [string, string][] } {
  const safe = safeHref(href);
  const at = safe.indexOf('?');
  if (at < 0) return { action: safe, fields: [] };
  const hash = safe.indexOf('#', at);
  const query = safe.slice(at + 1, hash < 0 ? undefined : hash);
  return { action: safe.slice(0, at) || '.', fields: [...new URLSearchParams(query)] };
}

// --- colours ---------------------------------------------------------------------------------------

type Rgb = [number, number, number];

function rgbOf(hex: string): Rgb {
  const digits = hex.slice(1);
  const full = digits.length <= 4 ? [...digits].map((d) => d + d).join('') : digits;
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as Rgb;
}

const toHex = (rgb: Rgb) => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;

/** WCAG 2 relative luminance of a hex colour (alpha ignored). */
export function luminance(hex: string): number {
  const [r, g, b] = rgbOf(hex).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio of two hex colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * The colour, darkened (on light backgrounds) or lightened (on dark ones) just enough for text in it to
 * reach `ratio` against every background given: a brand yellow stays recognisably yellow-brown, and
 * links drawn in it stay readable. Alpha is dropped (text is drawn opaque).
 */
export function readableOn(color: string, backgrounds: string[], ratio = 4.5): string {
  const base = rgbOf(color);
  const dark = backgrounds.every((bg) => luminance(bg) < 0.18);
  const target: Rgb = dark ? [255, 255, 255] : [0, 0, 0];
  for (let step = 0; step <= 20; step++) {
    const t = step / 20;
    const mixed = toHex(base.map((c, i) => c + (target[i] - c) * t) as Rgb);
    if (backgrounds.every((bg) => contrastRatio(mixed, bg) >= ratio)) return mixed;
  }
  return toHex(target);
}
