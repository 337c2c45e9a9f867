import type { LookupAddress, LookupOptions } from 'node:dns';
import dns from 'node:dns';
import { BlockList, isIP } from 'node:net';

// A webhook may only reach the public internet: never this machine, a private network, link-local
// addresses or a cloud metadata service. Addresses are checked when the connection is made (the
// lookup of the request itself), so a name that changes its answer after the check (DNS
// rebinding) cannot slip through.

const blocked = new BlockList();
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
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['64:ff9b::', 96],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}
const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** True when a webhook must not connect to this address. */
export function isForbiddenAddress(address: string, allowLoopback = false): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  // An IPv4 address written as IPv6 (::ffff:10.0.0.1) is judged as the IPv4 address it is.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isForbiddenAddress(mapped[1]!, allowLoopback); // the pattern's only group
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (allowLoopback && loopback.check(address, type)) return false;
  return blocked.check(address, type);
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** A `lookup` for http(s).request that refuses forbidden addresses. */
export function guardedLookup(allowLoopback: boolean) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '');
      const bad = addresses.find((a) => isForbiddenAddress(a.address, allowLoopback));
      const [first] = addresses;
      if (bad || !first) {
        const refusal: NodeJS.ErrnoException = new Error(
          `The webhook address ${hostname} resolves to a forbidden address.`,
        );
        refusal.code = 'EFORBIDDENADDRESS';
        return callback(refusal, '');
      }
      if (options.all) return callback(null, addresses);
      callback(null, first.address, first.family);
    });
  };
}

/**
 * Checks a webhook URL: https, no credentials, and a permitted address. A name that does not
 * resolve (yet) passes when `allowUnresolved`; the connection is checked again when sending.
 */
export async function checkWebhookUrl(
  value: string,
  allowLoopback = false,
  allowUnresolved = false,
): Promise<string | undefined> {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'Not a valid URL.';
  }
  if (url.protocol !== 'https:') return 'Only https URLs are allowed.';
  if (url.username || url.password) return 'The URL must not carry credentials.';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host))
    return isForbiddenAddress(host, allowLoopback) ? 'The URL points to a forbidden address.' : undefined;
  try {
    const addresses = await dns.promises.lookup(host, { all: true });
    return addresses.some((a) => isForbiddenAddress(a.address, allowLoopback))
      ? 'The URL resolves to a forbidden address.'
      : undefined;
  } catch {
    return allowUnresolved ? undefined : 'The host name of the URL cannot be resolved.';
  }
}
