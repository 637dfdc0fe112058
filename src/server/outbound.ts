/**
 * The one way the server fetches an address a user gave it (today: product images named in a CSV import).
 *
 * Server-side request forgery: an owner (or a file an owner was sent) could name http://169.254.169.254/ (a
 * cloud's metadata service), http://localhost:6379/ or a LAN host, and the server would fetch it from inside
 * the network. So before any connection:
 * - only http: and https: addresses;
 * - the host is resolved ONCE and every address it resolves to must be public (not loopback, private, link-local
 *   incl. the metadata address, CGNAT, unique-local, multicast, reserved, unspecified, IPv4-mapped or NAT64
 *   IPv6); the socket then connects to that checked address (the request's `lookup` hands it over), so a DNS
 *   answer that changes between the check and the connection (rebinding) is never used;
 * - redirects are followed by hand (at most 3), each new address checked the same way;
 * - the body is read up to a size cap and the whole fetch (redirects included) has a time cap.
 * Addresses in FETCH_ALLOW_ADDRESSES (a LAN image server, a test's loopback server) are let through.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

export const OUTBOUND_TEXT = {
  SCHEME: 'not an http(s) address',
  BAD_ADDRESS: 'not a valid web address',
  INTERNAL: (host: string) => `${host} is an internal address, which the server does not fetch`,
  NO_HOST: (host: string) => `${host} could not be found`,
  REDIRECTS: 'too many redirects',
  TOO_LARGE: (mb: number) => `larger than ${mb} MB`,
  TIMEOUT: (s: number) => `no answer within ${s} seconds`,
  STATUS: (n: number) => `HTTP ${n}`,
} as const;

/** A fetch refused or failed for a reason a person can read (the message is shown as it is). */
export class OutboundError extends Error {}

const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  BLOCKED.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  // ::/96 holds :: and ::1 and the old IPv4-compatible form. An IPv4-mapped address (::ffff:a.b.c.d) is
  // checked by BlockList against the IPv4 ranges above (a ::ffff:0:0/96 rule here would match every IPv4).
  ['::', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  BLOCKED.addSubnet(net, prefix, 'ipv6');

export interface OutboundOptions {
  /** Addresses let through although internal (FETCH_ALLOW_ADDRESSES). */
  allow?: readonly string[];
  /** Name resolution (the system's by default; a test hands its own). */
  resolve?: (host: string) => Promise<Array<{ address: string; family: number }>>;
  maxBytes: number;
  timeoutMs: number;
  maxRedirects?: number;
}

export interface Fetched {
  url: string;
  contentType: string;
  body: Buffer;
}

const bare = (host: string) => (host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host);

export class Outbound {
  private readonly allowed = new BlockList();

  constructor(private readonly options: OutboundOptions) {
    for (const a of options.allow ?? []) {
      const kind = isIP(a);
      if (kind) this.allowed.addAddress(a, kind === 6 ? 'ipv6' : 'ipv4');
    }
  }

  /** Whether an IP address may be connected to. */
  addressAllowed(ip: string): boolean {
    const kind = isIP(ip);
    if (!kind) return false;
    const type = kind === 6 ? 'ipv6' : 'ipv4';
    return this.allowed.check(ip, type) || !BLOCKED.check(ip, type);
  }

  /**
   * What can be told of an address without the network: its scheme, and its host when that is an IP address
   * or a name of this machine. Null when it may be fetched (the address it resolves to is checked then).
   */
  refusal(url: string): string | null {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return OUTBOUND_TEXT.BAD_ADDRESS;
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return OUTBOUND_TEXT.SCHEME;
    const host = bare(u.hostname);
    if (isIP(host)) return this.addressAllowed(host) ? null : OUTBOUND_TEXT.INTERNAL(u.hostname);
    const name = host.toLowerCase().replace(/\.$/, '');
    if (name === 'localhost' || name.endsWith('.localhost')) return OUTBOUND_TEXT.INTERNAL(u.hostname);
    return null;
  }

  /** The one checked address `host` connects to (every address it resolves to must be allowed). */
  private async addressOf(host: string): Promise<{ address: string; family: number }> {
    const h = bare(host);
    const kind = isIP(h);
    if (kind) {
      if (!this.addressAllowed(h)) throw new OutboundError(OUTBOUND_TEXT.INTERNAL(host));
      return { address: h, family: kind };
    }
    let found: Array<{ address: string; family: number }>;
    try {
      found = await (this.options.resolve ?? ((n: string) => dnsLookup(n, { all: true, verbatim: true })))(h);
    } catch {
      throw new OutboundError(OUTBOUND_TEXT.NO_HOST(host));
    }
    if (found.length === 0) throw new OutboundError(OUTBOUND_TEXT.NO_HOST(host));
    if (found.some((f) => !this.addressAllowed(f.address))) throw new OutboundError(OUTBOUND_TEXT.INTERNAL(host));
    return found[0]!;
  }

  /** GETs `url` (following up to maxRedirects redirects, every hop checked); refuses with an OutboundError. */
  async get(url: string): Promise<Fetched> {
    const deadline = AbortSignal.timeout(this.options.timeoutMs);
    let target = url;
    for (let hop = 0; hop <= (this.options.maxRedirects ?? 3); hop++) {
      const why = this.refusal(target);
      if (why) throw new OutboundError(why);
      const u = new URL(target);
      const pinned = await this.addressOf(u.hostname);
      const res = await this.open(u, pinned, deadline);
      const location = res.headers.location;
      if (res.statusCode && res.statusCode >= 300 && res.statusCode < 400 && location) {
        res.destroy();
        try {
          target = new URL(location, target).toString();
        } catch {
          throw new OutboundError(OUTBOUND_TEXT.BAD_ADDRESS);
        }
        continue;
      }
      if (!res.statusCode || res.statusCode < 200 || res.statusCode >= 300) {
        res.destroy();
        throw new OutboundError(OUTBOUND_TEXT.STATUS(res.statusCode ?? 0));
      }
      const body = await this.read(res, deadline);
      return { url: target, contentType: String(res.headers['content-type'] ?? ''), body };
    }
    throw new OutboundError(OUTBOUND_TEXT.REDIRECTS);
  }

  private open(u: URL, pinned: { address: string; family: number }, signal: AbortSignal): Promise<IncomingMessage> {
    // The socket connects to the address checked above, whatever the name would resolve to now.
    const lookup: LookupFunction = (_host, opts, cb) => {
      if ((opts as { all?: boolean }).all)
        (cb as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [pinned]);
      else cb(null, pinned.address, pinned.family);
    };
    const send = u.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const req = send(u, { method: 'GET', lookup, signal, headers: { accept: 'image/*', 'user-agent': 'Tessera' } }, resolve);
      req.on('error', (e) => reject(this.failure(e, signal)));
      req.end();
    });
  }

  private async read(res: IncomingMessage, signal: AbortSignal): Promise<Buffer> {
    const max = this.options.maxBytes;
    const tooLarge = () => new OutboundError(OUTBOUND_TEXT.TOO_LARGE(Math.round(max / 1_000_000)));
    if (Number(res.headers['content-length'] ?? 0) > max) {
      res.destroy();
      throw tooLarge();
    }
    const parts: Buffer[] = [];
    let n = 0;
    try {
      for await (const c of res) {
        n += (c as Buffer).length;
        if (n > max) {
          res.destroy();
          throw tooLarge();
        }
        parts.push(c as Buffer);
      }
    } catch (e) {
      throw this.failure(e, signal);
    }
    return Buffer.concat(parts);
  }

  private failure(e: unknown, signal: AbortSignal): Error {
    if (e instanceof OutboundError) return e;
    if (signal.aborted) return new OutboundError(OUTBOUND_TEXT.TIMEOUT(Math.round(this.options.timeoutMs / 1000)));
    return new OutboundError(e instanceof Error ? e.message : String(e));
  }
}
