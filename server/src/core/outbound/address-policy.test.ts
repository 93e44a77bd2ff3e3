import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classifyAddress, isAddressAllowed, parseCidrList } from './address-policy.ts';

// Pure classification only: nothing here opens a socket.
const NONE = { allowCidrs: [], requireHttps: true };

describe('classifyAddress', () => {
  const blocked: Array<[string, string]> = [
    ['10.1.2.3', '10.0.0.0/8'],
    ['172.16.0.1', '172.16.0.0/12'],
    ['172.31.255.255', '172.16.0.0/12'],
    ['192.168.1.1', '192.168.0.0/16'],
    ['127.0.0.1', '127.0.0.0/8'],
    ['127.255.0.9', '127.0.0.0/8'],
    ['0.0.0.0', '0.0.0.0/8'],
    ['169.254.1.1', '169.254.0.0/16'],
    ['169.254.169.254', '169.254.169.254/32'],
    ['100.64.0.1', '100.64.0.0/10'],
    ['100.100.100.200', '100.64.0.0/10'],
    ['192.0.0.170', '192.0.0.0/24'],
    ['192.0.2.1', '192.0.2.0/24'],
    ['198.18.0.1', '198.18.0.0/15'],
    ['198.51.100.7', '198.51.100.0/24'],
    ['203.0.113.9', '203.0.113.0/24'],
    ['224.0.0.251', '224.0.0.0/4'],
    ['239.255.255.250', '224.0.0.0/4'],
    ['240.0.0.1', '240.0.0.0/4'],
    ['255.255.255.255', '255.255.255.255/32'],
    ['::', '::/128'],
    ['::1', '::1/128'],
    ['fd00:ec2::254', 'fd00:ec2::254/128'],
    ['fd12:3456::1', 'fc00::/7'],
    ['fe80::1', 'fe80::/10'],
    ['fe80::1%eth0', 'fe80::/10'],
    ['ff02::1', 'ff00::/8'],
    ['2001:db8::1', '2001:db8::/32'],
    // IPv6 spellings of blocked IPv4 addresses are judged by the IPv4 they reach.
    ['::ffff:10.0.0.1', '10.0.0.0/8'],
    ['::ffff:7f00:1', '127.0.0.0/8'],
    ['::ffff:169.254.169.254', '169.254.169.254/32'],
    ['::127.0.0.1', '127.0.0.0/8'],
    ['64:ff9b::a00:1', '10.0.0.0/8'],
    ['64:ff9b::169.254.169.254', '169.254.169.254/32'],
    ['2002:7f00:1::', '127.0.0.0/8'],
    ['2002:c0a8:101::1', '192.168.0.0/16'],
  ];
  for (const [ip, range] of blocked) {
    it(`blocks ${ip} as ${range}`, () => {
      assert.deepEqual(classifyAddress(ip), { blocked: true, range });
    });
  }

  for (const ip of [
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700::1',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ]) {
    it(`allows public ${ip}`, () => {
      assert.deepEqual(classifyAddress(ip), { blocked: false });
    });
  }

  it('treats anything that is not a canonical IP literal as blocked', () => {
    for (const junk of ['', 'localhost', '127.1', '0x7f.0.0.1', '2130706433', '1.2.3.4 ', '::ffff:']) {
      assert.equal(classifyAddress(junk).blocked, true, junk);
    }
  });
});

describe('isAddressAllowed', () => {
  it('allows public and refuses blocked addresses by default', () => {
    assert.equal(isAddressAllowed('8.8.8.8', NONE), true);
    assert.equal(isAddressAllowed('2606:4700::1', NONE), true);
    assert.equal(isAddressAllowed('127.0.0.1', NONE), false);
    assert.equal(isAddressAllowed('::1', NONE), false);
    assert.equal(isAddressAllowed('not-an-ip', NONE), false);
  });

  it('lets allowCidrs unblock exactly the listed ranges', () => {
    const policy = { allowCidrs: ['127.0.0.0/8'], requireHttps: false };
    assert.equal(isAddressAllowed('127.0.0.1', policy), true);
    assert.equal(isAddressAllowed('127.9.9.9', policy), true);
    assert.equal(isAddressAllowed('::ffff:127.0.0.1', policy), true);
    assert.equal(isAddressAllowed('::1', policy), false);
    assert.equal(isAddressAllowed('10.0.0.1', policy), false);
    assert.equal(isAddressAllowed('169.254.169.254', policy), false);

    const single = { allowCidrs: ['127.0.0.2/32', '::1/128'], requireHttps: false };
    assert.equal(isAddressAllowed('127.0.0.2', single), true);
    assert.equal(isAddressAllowed('127.0.0.1', single), false);
    assert.equal(isAddressAllowed('::1', single), true);
  });

  it('ignores malformed allow entries instead of widening access', () => {
    assert.equal(
      isAddressAllowed('10.0.0.1', { allowCidrs: ['garbage', '10.0.0.0/99'], requireHttps: false }),
      false,
    );
  });
});

describe('parseCidrList', () => {
  it('parses, trims and normalises a comma-separated list', () => {
    assert.deepEqual(parseCidrList(undefined), []);
    assert.deepEqual(parseCidrList(''), []);
    assert.deepEqual(parseCidrList(' 127.0.0.0/8 , 10.0.0.0/8,, ::1/128 , fd00::/8 '), [
      '127.0.0.0/8',
      '10.0.0.0/8',
      '::1/128',
      'fd00::/8',
    ]);
  });

  it('reads a bare address as a single host', () => {
    assert.deepEqual(parseCidrList('127.0.0.2,::1'), ['127.0.0.2/32', '::1/128']);
  });

  for (const bad of [
    '10.0.0.0/33',
    '::/129',
    'localhost',
    '10.0.0/8',
    '127.1/8',
    '10.0.0.0/-1',
    '10.0.0.0/8/8',
    '10.0.0.0/',
    'fe80::1%eth0/64',
    '10.0.0.0/8x',
  ]) {
    it(`rejects ${JSON.stringify(bad)} naming the entry`, () => {
      assert.throws(
        () => parseCidrList(`127.0.0.0/8,${bad}`),
        (err: Error) => {
          assert.match(err.message, /Invalid CIDR/);
          assert.ok(err.message.includes(`"${bad}"`), err.message);
          return true;
        },
      );
    });
  }
});
