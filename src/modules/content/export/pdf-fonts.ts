/**
 * The PDF standard fonts (Helvetica, Courier): every PDF reader has them, so nothing is embedded. They
 * are WinAnsi-encoded (Latin-1 plus the characters below); text is made to fit before it is written.
 */
export const FONTS = {
  sans: ['Helvetica', 'Helvetica-Bold', 'Helvetica-Oblique', 'Helvetica-BoldOblique'],
  mono: ['Courier', 'Courier-Bold', 'Courier-Oblique', 'Courier-BoldOblique'],
} as const;

export const fontOf = (family: keyof typeof FONTS, bold: boolean, italic: boolean) => FONTS[family][(bold ? 1 : 0) + (italic ? 2 : 0)];

/**
 * The standard fonts are WinAnsi-encoded: Latin-1 plus these. Anything else is written as its
 * compatibility decomposition when that fits (é stays, ā → a, ﬁ → fi), else `?`, so any text renders.
 */
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
const inWinAnsi = (ch: string) => {
  const c = ch.codePointAt(0)!;
  return (c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xff) || WIN_ANSI_EXTRA.has(ch);
};
export function toWinAnsi(text: string): string {
  let out = '';
  for (const ch of text) {
    if (ch === '\n') out += ch;
    else if (ch === '\t') out += '    ';
    else if (inWinAnsi(ch)) out += ch;
    else if (ch.codePointAt(0)! < 0x20 || ch === '\x7f' || /\p{M}|\p{Cf}/u.test(ch)) continue;
    else {
      const decomposed = [...ch.normalize('NFKD')].filter((c) => !/\p{M}/u.test(c));
      out += decomposed.length && decomposed.every(inWinAnsi) ? decomposed.join('') : '?';
    }
  }
  return out;
}
