import type { ComponentChild, VNode } from 'preact';
import { safeAbsoluteUrl, safeResourceUrl } from './safe-url.ts';
import { cls, dataOf, isObj, list, str, textOf, tick, type Ctx, type Obj } from './document-kit.tsx';
import { link, refTarget, renderImage, renderInlines } from './inlines.tsx';

// ---------------------------------------------------------------------------------------------------
// Images, files, embeds, content references
// ---------------------------------------------------------------------------------------------------


/** A fragment of a block by its name (`caption`, `expandable-title` …). */
export function fragment(node: Obj, name: string): Obj | undefined {
  for (const f of list(node.fragments)) if (isObj(f) && (f.fragment === name || f.type === name)) return f;
  return undefined;
}

/** The inline content of a fragment's paragraphs (captions, expandable titles). */
export function fragmentInlines(f: Obj | undefined, ctx: Ctx): ComponentChild[] {
  if (!f) return [];
  return list(f.nodes).map((block, i) => (isObj(block) ? [i > 0 && ' ', block.object === 'block' ? renderInlines(block.nodes, ctx, 0, false) : renderInlines([block], ctx, 0, false)] : null));
}

export function renderImageFigure(node: Obj, ctx: Ctx): VNode | null {
  const data = dataOf(node);
  const caption = fragment(node, 'caption');
  const captionText = caption ? textOf(caption, ctx).trim() : str(data.caption)?.trim() ?? '';
  const image = renderImage(data, ctx, undefined, captionText);
  if (!image) return null;
  return (
    <figure class="image">
      {image}
      {caption ? <figcaption>{fragmentInlines(caption, ctx)}</figcaption> : captionText && <figcaption>{captionText}</figcaption>}
    </figure>
  );
}

export function renderImages(node: Obj, ctx: Ctx): VNode | null {
  if (ctx.dry) return null;
  const data = dataOf(node);
  const align = data.align === 'left' || data.align === 'right' ? data.align : 'center';
  const figures = list(node.nodes).map((image) => (isObj(image) && tick(ctx) ? renderImageFigure(image, ctx) : null));
  return <div class={cls('images', `images-${align}`, data.fullWidth === true && 'full-width')}>{figures}</div>;
}

/** `12.3 kB` */
export function formatSize(size: unknown): string | null {
  if (typeof size !== 'number' || !Number.isFinite(size) || size < 0) return null;
  const units = ['bytes', 'kB', 'MB', 'GB', 'TB'];
  let value = size;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return unit === 0 ? `${value} ${value === 1 ? 'byte' : 'bytes'}` : `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

const FileIcon = () => (
  <svg class="card-icon" viewBox="0 0 20 20" width="20" height="20" aria-hidden="true" focusable="false">
    <path fill="currentColor" d="M5 2h6.5L16 6.5V18H5zm6 1.5V7h3.5zM7 10h7v1.5H7zm0 3h7v1.5H7z" />
  </svg>
);

/** A file block: a download card (its caption or name, type and size), or the caption alone when the file is unknown. */
export function renderFile(node: Obj, ctx: Ctx): VNode | null {
  const data = dataOf(node);
  const ref = isObj(data.ref) ? data.ref : {};
  const file = typeof ref.file === 'string' ? ctx.resolve.file(ref.file) : null;
  const caption = fragment(node, 'caption');
  const captionText = caption ? textOf(caption, ctx).trim() : str(data.caption)?.trim();
  const name = file && typeof file.name === 'string' ? file.name : '';
  const href = file ? safeResourceUrl(file.url) : null;
  const title = captionText || name || 'File';
  if (!href) return <div class="file-card file-missing">{title}</div>;
  const facts = [captionText && name !== captionText ? name : null, str(file?.contentType), formatSize(file?.size)].filter(Boolean).join(' · ');
  return (
    <a class="file-card" href={href} download={name || true}>
      <FileIcon />
      <span class="card-text">
        <span class="card-title">{title}</span>
        {facts && <span class="card-meta">{facts}</span>}
      </span>
      <span class="card-action">Download</span>
    </a>
  );
}

/** An embed: a card linking to its URL (no iframe: the reader runs no third-party page). */
export function renderEmbed(node: Obj): VNode | null {
  const raw = dataOf(node).url;
  const url = safeAbsoluteUrl(raw);
  if (!url) return typeof raw === 'string' && raw.trim() ? <p class="embed-invalid">{raw.trim()}</p> : null;
  return (
    <a class="embed-card" href={url.href} rel="noopener noreferrer">
      <span class="card-text">
        <span class="card-title">{url.host}</span>
        <span class="card-meta">{url.href}</span>
      </span>
      <span class="card-action" aria-hidden="true">
        ↗
      </span>
    </a>
  );
}

/** A content-ref block: a card linking to a page (with its title), an anchor, a URL or a file; nothing when it leads nowhere readable. */
export function renderContentRef(ref: unknown, ctx: Ctx): VNode | null {
  if (!isObj(ref)) return null;
  const target = refTarget(ref, ctx);
  if (!target) return null;
  const page = str(ref.page);
  let title: string | null | undefined;
  if (ref.kind === 'page' || ref.kind === 'anchor') title = (page && ctx.resolve.pageTitle(page)) || str(ref.anchor);
  else if (ref.kind === 'file' && typeof ref.file === 'string') title = ctx.resolve.file(ref.file)?.name;
  else if (ref.kind === 'url') title = target.href;
  return link(
    target,
    [
      <span class="card-text">
        <span class="card-title">{title || 'Untitled'}</span>
      </span>,
      <span class="card-action" aria-hidden="true">
        {target.external ? '↗' : '→'}
      </span>,
    ],
    'content-ref',
  );
}
