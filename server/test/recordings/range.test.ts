// Recording media and thumbnails answer HTTP Range requests (RFC 9110 §14) behind their signed
// URLs, so a player can seek: one range → 206 with exactly those bytes, unsatisfiable → 416,
// anything we do not honour (several ranges, malformed, stale If-Range) → the whole body with 200.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { type ListeningPlatform, ok } from '../harness.ts';
import { createMeeting, createScenario, Participant, startLivePlatform } from '../live/helpers.ts';

let t: ListeningPlatform;
// Random bytes, so a slice from the wrong offset can never equal the expected one by accident.
const media = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), randomBytes(200_000)]);
const thumbnail = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), randomBytes(1000)]);
let mediaUrl: string;
let thumbnailUrl: string;

before(async () => {
  t = await startLivePlatform();
  const api = await t.workspace();
  const { scenario } = await createScenario(api);
  const meeting = await createMeeting(api, scenario.id);
  const p = await Participant.connect(t.baseUrl, meeting.id, meeting.room_token);
  await p.join();
  p.send({ type: 'leave' });
  await p.next('ended');
  // Uploaded after the end, the recording is published at once.
  const put = async (path: string, body: Buffer, type: string) => {
    const response = await fetch(
      `${t.baseUrl}/v1/rooms/${meeting.id}${path}?t=${encodeURIComponent(meeting.room_token)}`,
      { method: 'PUT', headers: { 'content-type': type }, body: new Uint8Array(body) },
    );
    assert.equal(response.status, 201, await response.text());
  };
  await put('/recording', media, 'video/webm');
  await put('/recording/thumbnail', thumbnail, 'image/png');
  const recording = ok(await api.call('GET', `/recordings/url-with-thumbnail/${meeting.id}`), 200).data;
  assert.equal(recording.size_bytes, media.length);
  mediaUrl = recording.url;
  thumbnailUrl = recording.thumbnail_url;
});
after(() => t.close());

const get = (url: string, headers: Record<string, string> = {}, method = 'GET') =>
  fetch(url, { method, headers });

async function bytes(response: Response): Promise<Buffer> {
  return Buffer.from(await response.arrayBuffer());
}

describe('recording media answers Range requests', () => {
  test('without Range: the whole file, 200, Accept-Ranges and validators', async () => {
    const response = await get(mediaUrl);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('accept-ranges'), 'bytes');
    assert.equal(response.headers.get('content-length'), String(media.length));
    assert.equal(response.headers.get('content-type'), 'video/webm');
    assert.match(response.headers.get('etag') ?? '', /^"[0-9a-f]+-[0-9a-f]+"$/);
    assert.ok(response.headers.get('last-modified'));
    assert.deepEqual(await bytes(response), media);
  });

  test('bytes=a-b: 206 with exactly that slice and its Content-Range', async () => {
    const response = await get(mediaUrl, { range: 'bytes=1000-1999' });
    assert.equal(response.status, 206);
    assert.equal(response.headers.get('content-range'), `bytes 1000-1999/${media.length}`);
    assert.equal(response.headers.get('content-length'), '1000');
    assert.equal(response.headers.get('accept-ranges'), 'bytes');
    assert.deepEqual(await bytes(response), media.subarray(1000, 2000));
  });

  test('bytes=a-: from a to the end; a last position past the end is clamped', async () => {
    const open = await get(mediaUrl, { range: 'bytes=150000-' });
    assert.equal(open.status, 206);
    assert.equal(open.headers.get('content-range'), `bytes 150000-${media.length - 1}/${media.length}`);
    assert.deepEqual(await bytes(open), media.subarray(150000));
    const past = await get(mediaUrl, { range: `bytes=${media.length - 10}-${media.length + 500}` });
    assert.equal(past.status, 206);
    assert.deepEqual(await bytes(past), media.subarray(media.length - 10));
    const first = await get(mediaUrl, { range: 'bytes=0-0' });
    assert.equal(first.status, 206);
    assert.deepEqual(await bytes(first), media.subarray(0, 1));
  });

  test('bytes=-n: the last n bytes, or the whole file when n is larger', async () => {
    const tail = await get(mediaUrl, { range: 'bytes=-500' });
    assert.equal(tail.status, 206);
    assert.equal(
      tail.headers.get('content-range'),
      `bytes ${media.length - 500}-${media.length - 1}/${media.length}`,
    );
    assert.deepEqual(await bytes(tail), media.subarray(media.length - 500));
    const all = await get(mediaUrl, { range: `bytes=-${media.length * 2}` });
    assert.equal(all.status, 206);
    assert.equal(all.headers.get('content-range'), `bytes 0-${media.length - 1}/${media.length}`);
    assert.deepEqual(await bytes(all), media);
  });

  test('unsatisfiable or invalid ranges: 416 with Content-Range bytes */size and an error body', async () => {
    for (const range of [
      `bytes=${media.length}-`,
      `bytes=${media.length + 5}-${media.length + 9}`,
      'bytes=-0',
      'bytes=20-10',
    ]) {
      const response = await get(mediaUrl, { range });
      assert.equal(response.status, 416, range);
      assert.equal(response.headers.get('content-range'), `bytes */${media.length}`, range);
      assert.equal(response.headers.get('accept-ranges'), 'bytes', range);
      const body = await response.json();
      assert.equal(body.error.code, 'range_not_satisfiable', range);
    }
  });

  test('several ranges, another unit or a malformed header: the whole file with 200', async () => {
    for (const range of [
      'bytes=0-9,20-29',
      'items=0-9',
      'bytes=abc',
      'bytes=1-2-3',
      'bytes=',
      'bytes 0-9',
      'bytes=-',
    ]) {
      const response = await get(mediaUrl, { range });
      assert.equal(response.status, 200, range);
      assert.equal(response.headers.get('content-range'), null, range);
      assert.equal((await bytes(response)).length, media.length, range);
    }
  });

  test('If-Range: honoured when the validator matches, ignored (200) when it does not', async () => {
    const plain = await get(mediaUrl, {}, 'HEAD');
    const etag = plain.headers.get('etag')!;
    const lastModified = plain.headers.get('last-modified')!;
    const matching = await get(mediaUrl, { range: 'bytes=10-19', 'if-range': etag });
    assert.equal(matching.status, 206);
    assert.deepEqual(await bytes(matching), media.subarray(10, 20));
    const byDate = await get(mediaUrl, { range: 'bytes=10-19', 'if-range': lastModified });
    assert.equal(byDate.status, 206);
    await byDate.arrayBuffer();
    for (const stale of ['"0-0"', `W/${etag}`, 'Thu, 01 Jan 1970 00:00:00 GMT', 'not a validator']) {
      const response = await get(mediaUrl, { range: 'bytes=10-19', 'if-range': stale });
      assert.equal(response.status, 200, stale);
      assert.equal((await bytes(response)).length, media.length, stale);
    }
  });

  test('HEAD: the same headers without a body, and the range is not applied', async () => {
    const head = await get(mediaUrl, { range: 'bytes=0-9' }, 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('accept-ranges'), 'bytes');
    assert.equal(head.headers.get('content-length'), String(media.length));
    assert.equal(head.headers.get('content-type'), 'video/webm');
    assert.equal((await bytes(head)).length, 0);
  });

  test('thumbnails too; and the signature is still checked before any range', async () => {
    const response = await get(thumbnailUrl, { range: 'bytes=0-7' });
    assert.equal(response.status, 206);
    assert.equal(response.headers.get('content-type'), 'image/png');
    assert.deepEqual(await bytes(response), thumbnail.subarray(0, 8));
    const tampered = new URL(mediaUrl);
    tampered.searchParams.set('signature', `${tampered.searchParams.get('signature')}x`);
    const refused = await get(tampered.toString(), { range: 'bytes=0-9' });
    assert.equal(refused.status, 404);
    assert.equal(refused.headers.get('content-range'), null);
    assert.equal((await get(tampered.toString(), {}, 'HEAD')).status, 404);
  });
});

describe('the storage route reads the object key from the path once', () => {
  /** The media URL with its last path segment's first character written as `encoded`. */
  const withFirstCharOfName = (encoded: string) => {
    const url = new URL(mediaUrl);
    const slash = url.pathname.lastIndexOf('/');
    url.pathname = `${url.pathname.slice(0, slash + 1)}${encoded}${url.pathname.slice(slash + 2)}`;
    return url.toString();
  };

  test('a key percent-encoded twice is not decoded twice: another key, so no object (404)', async () => {
    const name = new URL(mediaUrl).pathname.split('/').at(-1)!;
    const hex = name.charCodeAt(0).toString(16).toUpperCase();
    // `%25XX` is the text `%XX`: the signed key has the character itself, not those three.
    const response = await get(withFirstCharOfName(`%25${hex}`));
    assert.equal(response.status, 404);
    assert.equal((await response.json()).error.code, 'resource_not_found');
  });

  test('a path that decodes to a malformed escape is a 404 in the error shape, not a 500', async () => {
    const response = await get(withFirstCharOfName('%25E0z'));
    assert.equal(response.status, 404);
    const body = await response.json();
    assert.equal(body.error.code, 'resource_not_found');
    assert.equal(typeof body.error.message, 'string');
  });

  test('a path that is not valid percent-encoding at all: 400 invalid_request', async () => {
    const response = await get(withFirstCharOfName('%E0z'));
    assert.equal(response.status, 400);
    const body = await response.json();
    assert.equal(body.error.code, 'invalid_request');
    assert.equal(body.error.param, 'path');
  });
});
