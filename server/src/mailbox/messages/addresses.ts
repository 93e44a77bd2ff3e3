import type { AddressObject, EmailAddress } from 'mailparser';

/** `Name <addr>` or the bare address, as messages show their participants. */
export function formatAddress(address: { name?: string | null; address?: string | null }): string {
  const email = (address.address ?? '').trim();
  const name = (address.name ?? '').replace(/[\r\n"]/g, ' ').trim();
  if (!name || name.toLowerCase() === email.toLowerCase()) return email;
  return /[(),:;<>@[\]\\.]/.test(name) ? `"${name}" <${email}>` : `${name} <${email}>`;
}

function flatten(entries: EmailAddress[]): EmailAddress[] {
  return entries.flatMap((entry) => (entry.group ? flatten(entry.group) : entry.address ? [entry] : []));
}

/** Every address of one or more parsed address headers, formatted. */
export function addressList(value: AddressObject | AddressObject[] | undefined): string[] {
  if (!value) return [];
  const objects = Array.isArray(value) ? value : [value];
  return objects.flatMap((object) => flatten(object.value)).map(formatAddress);
}

/** The bare, lower-cased address of `Name <addr>` or `addr`. */
export function bareAddress(formatted: string): string {
  const match = /<([^<>]+)>\s*$/.exec(formatted);
  return (match ? match[1]! : formatted).trim().toLowerCase();
}

export function domainOf(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1).toLowerCase();
}

const ADDRESS =
  /^[^\s@<>()",;:]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

/** A plausible mail address (the relay has the last word); display names are accepted. */
export function isValidAddress(formatted: string): boolean {
  return ADDRESS.test(bareAddress(formatted));
}

export function unique(values: Iterable<string>): string[] {
  return [...new Set(values)];
}
