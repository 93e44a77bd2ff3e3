import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { addressKeys, type ListEntryRow, type ListEvidence, type ListLevel, verdictFor } from './policy.ts';

let counter = 0;
/** An entry of one level ('inbox', 'pod', 'namespace') and list, as the evidence query returns it. */
function entry(level: ListLevel, list: 'allow' | 'block', value: string): ListEntryRow {
  counter += 1;
  return {
    id: `${list === 'block' ? 'blk' : 'alw'}_${counter}`,
    namespace_id: 'ns_1',
    pod_id: level === 'pod' ? 'pod_1' : null,
    inbox_id: level === 'inbox' ? 'agent@mail.test' : null,
    list,
    direction: 'receive',
    kind: value.includes('@') ? 'address' : 'domain',
    value,
    reason: null,
    created_at: new Date(),
  };
}

/** The evidence of a set of entries for one address: what matches it, and the levels with an allow list. */
function evidence(address: string, entries: ListEntryRow[]): ListEvidence {
  const keys = addressKeys(address);
  const levelOf = (e: ListEntryRow): ListLevel => (e.inbox_id ? 'inbox' : e.pod_id ? 'pod' : 'namespace');
  return {
    matches: entries.filter((e) => keys.includes(e.value)),
    allowLevels: [...new Set(entries.filter((e) => e.list === 'allow').map(levelOf))],
  };
}

const verdict = (address: string, entries: ListEntryRow[]) => {
  const refusal = verdictFor(address, evidence(address, entries));
  return refusal
    ? `${refusal.list}@${refusal.level}${refusal.entry ? `:${refusal.entry.value}` : ''}`
    : 'admitted';
};

describe('allow and block lists: the verdict on an address', () => {
  test('the keys of an address are the address and every domain above it, not the bare TLD', () => {
    assert.deepEqual(addressKeys('Bob@Mail.Corp.Example.com'), [
      'bob@mail.corp.example.com',
      'mail.corp.example.com',
      'corp.example.com',
      'example.com',
    ]);
  });

  test('no lists: admitted; a block entry refuses its address and subdomains only', () => {
    assert.equal(verdict('a@example.com', []), 'admitted');
    const block = [entry('namespace', 'block', 'example.com')];
    assert.equal(verdict('a@example.com', block), 'block@namespace:example.com');
    assert.equal(verdict('a@mail.example.com', block), 'block@namespace:example.com');
    assert.equal(verdict('a@notexample.com', block), 'admitted');
  });

  test('an allow list admits only what it names; block wins over allow at the same level', () => {
    const lists = [entry('pod', 'allow', 'partner.example'), entry('pod', 'block', 'intern@partner.example')];
    assert.equal(verdict('boss@partner.example', lists), 'admitted');
    assert.equal(verdict('x@elsewhere.example', lists), 'allow@pod');
    assert.equal(verdict('intern@partner.example', lists), 'block@pod:intern@partner.example');
  });

  test('mail without a sender is on no allow list, and matches no block entry', () => {
    assert.equal(verdict('', [entry('inbox', 'allow', 'partner.example')]), 'allow@inbox');
    assert.equal(verdict('', [entry('inbox', 'block', 'partner.example')]), 'admitted');
  });

  test('the narrower level decides: inbox over pod over namespace', () => {
    const namespaceBlocks = [entry('namespace', 'block', 'partner.example')];
    assert.equal(verdict('ceo@partner.example', namespaceBlocks), 'block@namespace:partner.example');
    const exception = [...namespaceBlocks, entry('inbox', 'allow', 'ceo@partner.example')];
    assert.equal(
      verdict('ceo@partner.example', exception),
      'admitted',
      'the inbox allows what the namespace blocks',
    );
    // The inbox's allow list now says "only the ceo", also for senders the namespace says nothing about.
    assert.equal(verdict('x@other.example', exception), 'allow@inbox');

    const podAllows = [
      entry('pod', 'allow', 'customer.example'),
      entry('namespace', 'allow', 'ours.example'),
    ];
    assert.equal(verdict('x@customer.example', podAllows), 'admitted');
    assert.equal(verdict('x@ours.example', podAllows), 'allow@pod', 'the pod allow list decides first');

    const inboxBlocks = [entry('inbox', 'block', 'x@customer.example'), ...podAllows];
    assert.equal(verdict('x@customer.example', inboxBlocks), 'block@inbox:x@customer.example');
    assert.equal(
      verdict('y@customer.example', inboxBlocks),
      'admitted',
      'the inbox has no opinion: the pod allows',
    );
  });

  test('the most specific entry of a level is named: the address, then the longest domain', () => {
    const lists = [
      entry('namespace', 'block', 'example.com'),
      entry('namespace', 'block', 'mail.example.com'),
      entry('namespace', 'block', 'a@mail.example.com'),
    ];
    assert.equal(verdict('a@mail.example.com', lists), 'block@namespace:a@mail.example.com');
    assert.equal(verdict('b@mail.example.com', lists), 'block@namespace:mail.example.com');
  });
});
