import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OutboundError } from './errors.ts';
import { type LookupFn, vetUrl } from './vet.ts';

// Injected DNS only: these tests resolve names but never connect anywhere.
function fakeDns(table: Record<string, string[]>): LookupFn & { calls: string[] } {
  const calls: string[] = [];
  const lookup = async (hostname: string) => {
    calls.push(hostname);
    const found = table[hostname];
    if (!found) throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return found;
  };
  return Object.assign(lookup, { calls });
}

const isCode = (code: OutboundError['code']) => (err: unknown) =>
  err instanceof OutboundError && err.code === code;

const PROD = { allowCidrs: [], requireHttps: true };

describe('vetUrl', () => {
  it('returns every resolved address when all are public', async () => {
    const dns = fakeDns({ 'hooks.example.com': ['8.8.8.8', '2606:4700::1'] });
    const { url, addresses } = await vetUrl('https://hooks.example.com/in', PROD, dns);
    assert.equal(url.hostname, 'hooks.example.com');
    assert.deepEqual(addresses, ['8.8.8.8', '2606:4700::1']);
  });

  it('refuses a host if any one of its addresses is blocked', async () => {
    const dns = fakeDns({ 'mixed.example.com': ['8.8.8.8', '10.0.0.5'] });
    await assert.rejects(vetUrl('https://mixed.example.com/', PROD, dns), (err: unknown) => {
      assert.ok(isCode('blocked_address')(err));
      assert.match((err as Error).message, /10\.0\.0\.0\/8/);
      return true;
    });
  });

  it('checks IP literals without DNS, including IPv6 and odd IPv4 spellings', async () => {
    const dns = fakeDns({});
    for (const url of [
      'https://169.254.169.254/latest/meta-data/',
      'https://[::1]/',
      'https://[::ffff:7f00:1]/',
      'https://[fd00:ec2::254]/',
      'https://2130706433/', // the URL parser normalises this to 127.0.0.1
      'https://0x7f.1/',
    ]) {
      await assert.rejects(vetUrl(url, PROD, dns), isCode('blocked_address'), url);
    }
    assert.deepEqual((await vetUrl('https://8.8.8.8/', PROD, dns)).addresses, ['8.8.8.8']);
    assert.deepEqual(dns.calls, []);
  });

  it('refuses plain http when https is required, before any lookup', async () => {
    const dns = fakeDns({ 'hooks.example.com': ['8.8.8.8'] });
    await assert.rejects(vetUrl('http://hooks.example.com/', PROD, dns), isCode('https_required'));
    assert.deepEqual(dns.calls, []);
    const dev = { allowCidrs: [], requireHttps: false };
    assert.equal((await vetUrl('http://hooks.example.com/', dev, dns)).url.protocol, 'http:');
  });

  it('rejects malformed URLs, other schemes and embedded credentials', async () => {
    const dns = fakeDns({});
    for (const url of [
      'not a url',
      '/relative',
      'ftp://example.com/',
      'file:///etc/passwd',
      'https://u:p@example.com/',
    ]) {
      await assert.rejects(vetUrl(url, PROD, dns), isCode('invalid_url'), url);
    }
  });

  it('reports resolution failures as dns_failure', async () => {
    await assert.rejects(vetUrl('https://nowhere.example/', PROD, fakeDns({})), isCode('dns_failure'));
    const empty = fakeDns({ 'empty.example': [] });
    await assert.rejects(vetUrl('https://empty.example/', PROD, empty), isCode('dns_failure'));
  });
});
