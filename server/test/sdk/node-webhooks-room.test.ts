// The Node SDK's webhook verification against deliveries the platform really sent (to a loopback
// receiver, by the real delivery worker), before and after a secret rotation; and its RoomClient
// playing a participant over the realtime protocol with the offline engine.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import WebSocket from 'ws';
import {
  NotFoundError,
  RoomClient,
  RoomError,
  type RoomFrame,
  Understudy,
  verifyServiceSignature,
  verifyWebhook,
  WebhookVerificationError,
  type WebSocketConstructor,
} from '../../../sdk/node/src/index.ts';
import { TestReceiver } from '../../src/core/delivery/testing/receiver.ts';
import { openTestDatabase, type TestDatabase } from '../../src/core/delivery/testing/test-database.ts';
import { DeliveryWorker } from '../../src/core/delivery/worker.ts';
import { outboundPolicyFor } from '../../src/core/outbound/address-policy.ts';
import { OutboundClient } from '../../src/core/outbound/client.ts';
import { createPlatformWebhookProfile } from '../../src/platform/events/webhook-profile.ts';
import { type ListeningPlatform, startListeningPlatform } from '../harness.ts';

let t: ListeningPlatform;
let db: TestDatabase;
let client: Understudy;
let receiver: TestReceiver;
let outbound: OutboundClient;
let worker: DeliveryWorker;

before(async () => {
  // A database of its own: the worker delivers everything due in it.
  db = await openTestDatabase();
  t = await startListeningPlatform({ database: db.database });
  const api = await t.workspace();
  client = new Understudy({ apiKey: api.key, baseUrl: t.baseUrl });
  receiver = await TestReceiver.start();
  outbound = new OutboundClient(outboundPolicyFor(t.deps.config));
  worker = new DeliveryWorker({
    database: t.deps.database,
    clock: t.clock,
    client: outbound,
    profiles: [createPlatformWebhookProfile({ secretBox: t.deps.secretBox })],
    logger: { info() {}, warn() {}, error() {} } as never,
  });
});
after(async () => {
  await outbound.close();
  await receiver.close();
  await t.close();
  await db.close();
});

async function deliverUntil(count: number) {
  for (let round = 0; round < 200 && receiver.requests.length < count; round += 1) await worker.runOnce();
  assert.equal(receiver.requests.length, count, 'the delivery arrived');
  return receiver.requests[count - 1]!;
}

/** A persona, a scenario and a meeting, all through the SDK. */
async function createMeeting() {
  const persona = await client.personas.create({ name: 'Jane Doe', job_title: 'Engineering Manager' });
  const scenario = await client.scenarios.create({
    name: 'SDK interview',
    type: 'interview',
    persona_id: persona.id,
    prompt: '## Questions\n1. Ask about their background.\n2. Ask about a system they designed.',
    welcome_message: 'Hi, I am Jane. Shall we begin?',
  });
  const meeting = await client.meetings.create({ scenario_id: scenario.id, person_name: 'Sam Lee' });
  return meeting.data;
}

describe('webhook verification of real deliveries', () => {
  test('Service-Signature verifies with the secret, and with either secret after a rotation', async () => {
    const endpoint = await client.webhooks.createEndpoint({
      url: receiver.url,
      subscribed_events: ['meeting.created'],
    });
    const firstSecret = endpoint.data.signing_secret;
    const meeting = await createMeeting();
    const delivery = await deliverUntil(1);

    const now = t.clock.now();
    const event = verifyWebhook<{ event: string; data: { meeting_id: string } }>(
      delivery.rawBody,
      delivery.headers as Record<string, string>,
      { secrets: [firstSecret], now },
    );
    assert.equal(event.event, 'meeting.created');
    assert.equal(event.data.meeting_id, meeting.id);
    assert.throws(
      () =>
        verifyWebhook(`${delivery.rawBody} `, delivery.headers as Record<string, string>, {
          secrets: firstSecret,
          now,
        }),
      (error: unknown) =>
        error instanceof WebhookVerificationError && error.reason === 'no_matching_signature',
    );
    assert.throws(
      () =>
        verifyWebhook(delivery.rawBody, delivery.headers as Record<string, string>, {
          secrets: firstSecret,
          now: new Date(now.getTime() + 301_000),
        }),
      (error: unknown) =>
        error instanceof WebhookVerificationError && error.reason === 'timestamp_outside_tolerance',
    );
    assert.deepEqual(verifyServiceSignature(undefined, delivery.rawBody, { secrets: firstSecret }), {
      ok: false,
      reason: 'missing_header',
    });

    const rotated = await client.webhooks.rotateEndpointSecret(endpoint.data.id);
    const secondSecret = rotated.data.signing_secret;
    assert.notEqual(secondSecret, firstSecret);
    await createMeeting();
    const signedTwice = await deliverUntil(2);
    const header = String(signedTwice.headers['service-signature']);
    assert.equal(header.match(/v1=/g)?.length, 2, 'both secrets sign during the rotation');
    for (const secrets of [[firstSecret], [secondSecret], ['whsec_other', secondSecret]]) {
      const result = verifyServiceSignature(header, signedTwice.rawBody, { secrets, now: t.clock.now() });
      assert.equal(result.ok, true, `verifies with ${secrets.length} secret(s)`);
    }
    assert.equal(
      verifyServiceSignature(header, signedTwice.rawBody, { secrets: ['whsec_other'], now: t.clock.now() })
        .ok,
      false,
    );
  });
});

describe('RoomClient', () => {
  test('joins with the room token, hears the welcome, gets an answer, leaves', async () => {
    const meeting = await createMeeting();
    const room = new RoomClient({
      baseUrl: t.baseUrl,
      meetingId: meeting.id,
      roomToken: meeting.room_token,
      WebSocket: WebSocket as unknown as WebSocketConstructor,
    });
    const joined = await room.join();
    assert.equal(joined.meeting.status, 'active');
    assert.equal(joined.resumed, false);
    const welcome = await room.next('agent.message');
    assert.equal(welcome.text, 'Hi, I am Jane. Shall we begin?');

    t.clock.advance(5_000);
    const answer = await room.ask('Yes, ready.', { id: 'u1' });
    assert.match(answer.text, /background/i);
    // The participant's sentence may be stored before or after the answer arrives.
    const isMine = (frame: RoomFrame) => frame.type === 'transcript.sentence' && frame.client_id === 'u1';
    const stored = room.frames.find(isMine) ?? (await room.next(isMine));
    assert.equal(stored.sentence.speaker, 'user');

    const ended = await room.leave();
    assert.equal(ended.reason, 'participant_left');
  });

  test('a wrong room token is refused before the socket opens', async () => {
    const meeting = await createMeeting();
    const room = new RoomClient({
      baseUrl: t.baseUrl,
      meetingId: meeting.id,
      roomToken: 'not-the-token',
      WebSocket: WebSocket as unknown as WebSocketConstructor,
    });
    await assert.rejects(room.join(), RoomError);
  });

  test('the room token opens the HTTP operations: welcome, transcript, recording and thumbnail uploads', async () => {
    assert.equal('room' in client, false, 'the API-key client has no room operations');
    const meeting = await createMeeting();
    const room = new RoomClient({
      baseUrl: t.baseUrl,
      meetingId: meeting.id,
      roomToken: meeting.room_token,
      WebSocket: WebSocket as unknown as WebSocketConstructor,
    });
    await room.join({ consent: { recording: true }, recording: true });
    await room.next('agent.message');
    await room.leave();

    const welcome = await room.welcome();
    assert.equal(welcome.meeting.id, meeting.id);
    const transcript = await room.transcript();
    assert.equal(transcript.status, 'ended');
    assert.equal(transcript.sentences[0]?.message, 'Hi, I am Jane. Shall we begin?');
    // The scenario does not share results with the participant (the default).
    await assert.rejects(
      room.results(),
      (error: unknown) => error instanceof NotFoundError && error.code === 'results_not_shared',
    );

    // A WebM starts with the EBML magic number; a PNG with its signature.
    const media = new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, ...new Array(4096).fill(7)]);
    const uploaded = await room.uploadRecording(media, 'video/webm');
    assert.deepEqual(uploaded, { status: 'uploaded', size: media.length, content_type: 'video/webm' });
    const png = Uint8Array.from(Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'));
    const thumbnail = await room.uploadThumbnail(png, 'image/png');
    assert.equal(thumbnail.size, png.length);

    const recording = await client.recordings.getWithThumbnail(meeting.id);
    assert.equal(recording.data.size_bytes, media.length);

    const stranger = new RoomClient({
      baseUrl: t.baseUrl,
      meetingId: meeting.id,
      roomToken: 'not-the-token',
    });
    // A wrong token does not reveal whether the meeting exists.
    await assert.rejects(stranger.welcome(), NotFoundError);
  });
});
