// The frames of the mailbox's event WebSocket (docs/mailbox.md "WebSocket"), as schemas: the
// AsyncAPI document (openapi/mailbox-v0.events.asyncapi.json) is generated from them. Client frames
// are parsed by hand in routes.ts, so that a bad one is answered with an `error` frame naming the
// problem; these schemas describe what it accepts.
import { type TSchema, Type } from 'typebox';
import { EVENT_PAYLOADS } from '../events/schemas.ts';
import { EVENT_TYPES } from '../events/types.ts';

const EventTypeList = Type.Array(Type.Enum(EVENT_TYPES), { description: 'Omitted or null: every type.' });

export const CLIENT_FRAMES: Record<string, TSchema> = {
  subscribe: Type.Object(
    {
      type: Type.Literal('subscribe'),
      inbox_ids: Type.Optional(
        Type.Union([Type.Array(Type.String()), Type.Null()], {
          description: 'Omitted or null: every inbox the key reaches, now and later.',
        }),
      ),
      event_types: Type.Optional(Type.Union([EventTypeList, Type.Null()])),
    },
    {
      $id: 'SubscribeFrame',
      title: 'SubscribeFrame',
      description: 'Replaces the subscription; never widens it beyond the key’s reach.',
    },
  ),
  unsubscribe: Type.Object(
    { type: Type.Literal('unsubscribe') },
    { $id: 'UnsubscribeFrame', title: 'UnsubscribeFrame', description: 'Stops the events.' },
  ),
  ping: Type.Object(
    { type: Type.Literal('ping') },
    { $id: 'PingFrame', title: 'PingFrame', description: 'Answered with `pong`.' },
  ),
};

export const SERVER_FRAMES: Record<string, TSchema> = {
  subscribed: Type.Object(
    {
      type: Type.Literal('subscribed'),
      inbox_ids: Type.Union([Type.Array(Type.String()), Type.Null()]),
      event_types: Type.Union([Type.Array(Type.String()), Type.Null()]),
    },
    { $id: 'SubscribedFrame', title: 'SubscribedFrame', description: 'The subscription now in force.' },
  ),
  unsubscribed: Type.Object(
    { type: Type.Literal('unsubscribed') },
    {
      $id: 'UnsubscribedFrame',
      title: 'UnsubscribedFrame',
      description: 'No events until the next subscribe.',
    },
  ),
  pong: Type.Object(
    { type: Type.Literal('pong') },
    { $id: 'PongFrame', title: 'PongFrame', description: 'The answer to `ping`.' },
  ),
  error: Type.Object(
    {
      type: Type.Literal('error'),
      code: Type.Enum(['not_found', 'invalid_request', 'invalid_json', 'internal_error']),
      message: Type.String(),
    },
    {
      additionalProperties: true,
      $id: 'ErrorFrame',
      title: 'ErrorFrame',
      description: 'A frame was refused; the subscription stays as it was.',
    },
  ),
  ...EVENT_PAYLOADS,
};
