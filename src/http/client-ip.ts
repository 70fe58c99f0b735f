import { isIP } from 'node:net';

/** What node:http puts in Yoga's server context (absent when the app is called without a socket, as in tests). */
interface NodeServerContext {
  req?: { socket?: { remoteAddress?: string } };
}

/**
 * The address rate limits count against. Without trusted proxies it is the socket's peer address; behind
 * `trustedProxies` reverse proxies, each of which appends the address it received the request from to
 * X-Forwarded-For, it is the entry that many places from the right of [...X-Forwarded-For, peer]. Entries
 * further left were written by the client and could be anything. Without a socket (the app called
 * directly) the peer is unknown and every such caller shares one `unknown` bucket.
 */
export function clientIp(request: Request, serverContext: unknown, trustedProxies: number): string {
  const peer = (serverContext as NodeServerContext | undefined)?.req?.socket?.remoteAddress;
  let address = peer;
  if (trustedProxies > 0) {
    const forwarded = (request.headers.get('x-forwarded-for') ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    const chain = [...forwarded, peer ?? 'unknown'];
    address = chain[Math.max(0, chain.length - 1 - trustedProxies)];
  }
  return (address && normalizeIp(address)) ?? 'unknown';
}

/**
 * One key per client: IPv4 as is (also when IPv4-mapped, `::ffff:1.2.3.4`); IPv6 by its /64 prefix,
 * because one subscriber usually gets a whole /64 and could otherwise rotate through 2^64 keys.
 * Anything that is not an IP address gives undefined.
 */
export function normalizeIp(address: string): string | undefined {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped && isIP(mapped[1]) === 4) return mapped[1];
  const kind = isIP(address);
  if (kind === 4) return address;
  if (kind !== 6 || address.includes('.')) return kind === 6 ? address.toLowerCase() : undefined;
  const [head, tail] = address.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail === undefined ? [] : tail ? tail.split(':') : [];
  const groups = [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return `${groups.slice(0, 4).map((group) => group.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}
