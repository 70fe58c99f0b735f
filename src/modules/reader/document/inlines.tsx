import type { ComponentChild, VNode } from 'preact';
import { renderMath } from './math.tsx';
import { safeAbsoluteUrl, safeLinkHref, safeResourceUrl, type SafeHref } from './safe-url.ts';
import { cls, dataOf, emojiOf, isObj, list, MAX_INLINE_DEPTH, positiveInt, str, textOf, tick, withBreaks, type Ctx, type Obj } from './document-kit.tsx';

// ---------------------------------------------------------------------------------------------------
// Inlines
// ---------------------------------------------------------------------------------------------------

export function renderInlines(nodes: unknown, ctx: Ctx, depth: number, inLink: boolean): ComponentChild[] {
  const out: ComponentChild[] = [];
  for (const node of list(nodes)) {
    if (!isObj(node) || !tick(ctx)) continue;
    if (node.object === 'text') {
      for (const leaf of list(node.leaves)) if (isObj(leaf) && tick(ctx)) out.push(renderLeaf(leaf));
    } else if (node.object === 'leaf') out.push(renderLeaf(node));
    else if (depth > MAX_INLINE_DEPTH) out.push(textOf(node, ctx));
    else out.push(renderInline(node, ctx, depth, inLink));
  }
  return out;
}

/** Marks, outermost first; each at most once per leaf whatever the leaf lists. */
const MARK_ORDER = ['color', 'bold', 'italic', 'strikethrough', 'superscript', 'subscript', 'keyboard', 'code'] as const;
const COLORS = new Set(['green', 'blue', 'red', 'orange', 'yellow', 'purple', 'pink', 'violet', 'cyan', '$primary', '$info', '$success', '$warning', '$danger', '$tint']);

function renderLeaf(leaf: Obj): ComponentChild {
  const text = str(leaf.text);
  if (!text) return null;
  const marks = new Map<string, Obj>();
  for (const mark of list(leaf.marks)) if (isObj(mark) && typeof mark.type === 'string' && !marks.has(mark.type)) marks.set(mark.type, mark);
  let out: ComponentChild = withBreaks(text);
  for (let i = MARK_ORDER.length - 1; i >= 0; i--) {
    const type = MARK_ORDER[i];
    const mark = marks.get(type);
    if (!mark) continue;
    if (type === 'code') out = <code>{out}</code>;
    else if (type === 'keyboard') out = <kbd>{out}</kbd>;
    else if (type === 'subscript') out = <sub>{out}</sub>;
    else if (type === 'superscript') out = <sup>{out}</sup>;
    else if (type === 'strikethrough') out = <s>{out}</s>;
    else if (type === 'italic') out = <em>{out}</em>;
    else if (type === 'bold') out = <strong>{out}</strong>;
    else {
      const data = dataOf(mark);
      const color = (value: unknown, prefix: string) => (typeof value === 'string' && COLORS.has(value) ? `${prefix}${value.replace('$', '')}` : null);
      const className = cls(color(data.text, 'text-'), color(data.background, 'bg-'));
      if (className) out = <span class={className}>{out}</span>;
    }
  }
  return out;
}

/** Where a content reference leads, or null when it leads nowhere the reader may go. */
export function refTarget(ref: unknown, ctx: Ctx): SafeHref | null {
  if (!isObj(ref)) return null;
  const page = str(ref.page);
  switch (ref.kind) {
    case 'url':
      return safeLinkHref(ref.url);
    case 'page':
      return page ? internal(ctx.resolve.pageHref(page)) : null;
    case 'anchor': {
      const anchor = str(ref.anchor);
      if (!anchor) return page ? internal(ctx.resolve.pageHref(page)) : null;
      return page ? internal(ctx.resolve.pageHref(page, anchor)) : { href: `#${anchor}`, external: false };
    }
    case 'file': {
      const file = typeof ref.file === 'string' ? ctx.resolve.file(ref.file) : null;
      return file ? internal(file.url) : null;
    }
    default:
      return null;
  }
}

/** An href the resolver made, checked all the same. */
export function internal(href: unknown): SafeHref | null {
  const safe = safeResourceUrl(href);
  return safe ? { href: safe, external: false } : null;
}

export function link(target: SafeHref, children: ComponentChild, className?: string): VNode {
  return (
    <a href={target.href} class={className} rel={target.external ? 'noopener noreferrer' : undefined}>
      {children}
    </a>
  );
}

function renderInline(node: Obj, ctx: Ctx, depth: number, inLink: boolean): ComponentChild {
  const data = dataOf(node);
  switch (node.type) {
    case 'link': {
      const content = renderInlines(node.nodes, ctx, depth + 1, true);
      // A link in a link is invalid HTML: the inner one is drawn as its content.
      const target = inLink ? null : refTarget(data.ref, ctx);
      return target ? link(target, content) : content;
    }
    case 'inline-image':
      return renderImage(data, ctx, cls('inline-image', data.size === 'line' && 'inline-image-line'));
    case 'inline-math':
      return ctx.dry ? null : renderMath(data.formula, false, ctx.math);
    case 'emoji': {
      const emoji = emojiOf(data.code);
      return emoji ? <span class="emoji">{emoji}</span> : null;
    }
    case 'mention': {
      const ref = isObj(data.ref) ? data.ref : null;
      const page = ref && (ref.kind === 'page' || ref.kind === 'anchor') ? str(ref.page) : undefined;
      const target = inLink ? null : refTarget(ref, ctx);
      if (!target) return null;
      const title = (page && ctx.resolve.pageTitle(page)) || (ref?.kind === 'url' ? target.href : null);
      return title ? link(target, title, 'mention') : null;
    }
    case 'button': {
      const label = str(data.label);
      if (!label) return null;
      const target = inLink ? null : refTarget(data.ref, ctx);
      const className = cls('button', data.kind === 'secondary' ? 'button-secondary' : 'button-primary');
      return target ? link(target, label, className) : <span class={className}>{label}</span>;
    }
    case 'annotation':
      return <span class="annotation">{renderInlines(node.nodes, ctx, depth + 1, inLink)}</span>;
    case 'icon':
    case 'expression':
      // An icon needs an icon set, an expression the visitor's variables: the reader has neither.
      return null;
    default:
      return textOf(node, ctx);
  }
}


export interface ImageSource {
  src: string;
  width?: number;
  height?: number;
}

/** An image's source: an absolute http(s) URL written in the document, or a file of the space. */
export function imageSource(ref: unknown, ctx: Ctx): ImageSource | null {
  if (!isObj(ref)) return null;
  if (ref.kind === 'url') {
    const url = safeAbsoluteUrl(ref.url);
    return url ? { src: url.href } : null;
  }
  if (ref.kind === 'file' && typeof ref.file === 'string') {
    const file = ctx.resolve.file(ref.file);
    const src = file ? safeResourceUrl(file.url) : null;
    return file && src ? { src, width: positiveInt(file.width), height: positiveInt(file.height) } : null;
  }
  return null;
}

/**
 * `<img>` of `data.ref` (and of `data.refDark`, drawn instead in the dark theme), or the alternative text
 * when the image cannot be shown.
 */
export function renderImage(data: Obj, ctx: Ctx, className: string | undefined, fallbackAlt = ''): ComponentChild {
  if (ctx.dry) return null;
  const alt = str(data.alt) ?? str(data.caption) ?? fallbackAlt;
  const light = imageSource(data.ref, ctx);
  const dark = imageSource(data.refDark, ctx);
  const img = (source: ImageSource, extra?: string) => (
    <img src={source.src} alt={alt} width={source.width} height={source.height} loading="lazy" decoding="async" class={cls(className, extra)} />
  );
  if (!light) return alt ? <span class={cls('image-missing', className)}>{alt}</span> : null;
  if (!dark || dark.src === light.src) return img(light);
  return [img(light, 'only-light'), img(dark, 'only-dark')];
}
