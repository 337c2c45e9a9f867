import { BlockList, isIP } from 'node:net';

// IP ranges of a scope are lists of CIDRs ('10.0.0.0/8', '2001:db8::/32', or a single address).

function family(address: string): 'ipv4' | 'ipv6' | undefined {
  const v = isIP(address);
  return v === 4 ? 'ipv4' : v === 6 ? 'ipv6' : undefined;
}

/** Strips the IPv6 form of an IPv4 address (::ffff:10.0.0.1) that dual-stack sockets report. */
export function plainAddress(ip: string): string {
  return ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
}

export function isValidCidr(cidr: string): boolean {
  const [address, prefix] = cidr.trim().split('/');
  const f = family(address ?? '');
  if (!f) return false;
  if (prefix === undefined) return true;
  const n = Number(prefix);
  return Number.isInteger(n) && n >= 0 && n <= (f === 'ipv4' ? 32 : 128);
}

/** True when the address lies in one of the ranges; an empty list admits every address. */
export function addressInRanges(ip: string, cidrs: readonly string[]): boolean {
  const valid = cidrs.filter(isValidCidr);
  if (cidrs.length === 0) return true;
  const address = plainAddress(ip);
  const f = family(address);
  if (!f) return false;
  const list = new BlockList();
  for (const cidr of valid) {
    const [net = '', prefix] = cidr.trim().split('/'); // split always yields a first part
    const nf = family(net) as 'ipv4' | 'ipv6';
    if (prefix === undefined) list.addAddress(net, nf);
    else list.addSubnet(net, Number(prefix), nf);
  }
  return list.check(address, f);
}
