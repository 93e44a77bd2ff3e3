import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { contentSecurityPolicy, frameAncestors, originOf, pageHeaders, safeHost } from './headers.ts';

const directives = (csp: string) =>
  new Map(
    csp.split('; ').map((directive) => {
      const [name, ...values] = directive.split(' ');
      return [name, values.join(' ')] as const;
    }),
  );

describe('room page headers', () => {
  it('lets any site frame a public room, only the platform a restricted one or the meeting page', () => {
    assert.equal(frameAncestors('room', true), '*');
    assert.equal(frameAncestors('room', false), "'self'");
    assert.equal(frameAncestors('meeting', true), "'self'");
    assert.equal(frameAncestors('message', false), '*');
  });

  it('allows only our own scripts, styles and sockets', () => {
    const csp = directives(
      contentSecurityPolicy({
        kind: 'room',
        host: 'rooms.example.com',
        embeddable: true,
        imageOrigins: ['https://cdn.example.com', 'https://cdn.example.com'],
      }),
    );
    assert.equal(csp.get('default-src'), "'none'");
    assert.equal(csp.get('script-src'), "'self'");
    assert.equal(csp.get('style-src'), "'self'");
    assert.equal(csp.get('connect-src'), "'self' ws://rooms.example.com wss://rooms.example.com");
    assert.equal(csp.get('img-src'), "'self' data: blob: https://cdn.example.com");
    assert.equal(csp.get('media-src'), "'self' blob: mediastream:");
    assert.equal(csp.get('frame-ancestors'), '*');
    assert.equal(csp.get('base-uri'), "'none'");
    assert.equal(csp.get('object-src'), "'none'");
  });

  it('leaves a malformed Host header out of the policy', () => {
    assert.equal(safeHost('127.0.0.1:8080'), '127.0.0.1:8080');
    assert.equal(safeHost('[::1]:3000'), '[::1]:3000');
    assert.equal(safeHost('evil.com; script-src *'), null);
    assert.equal(safeHost(undefined), null);
    const csp = directives(
      contentSecurityPolicy({ kind: 'room', host: null, embeddable: true, imageOrigins: [] }),
    );
    assert.equal(csp.get('connect-src'), "'self'");
  });

  it('never sends a referrer (the address holds the room token) and is never cached', () => {
    const headers = pageHeaders({ kind: 'room', host: 'a.test', embeddable: true, imageOrigins: [] });
    assert.equal(headers['Referrer-Policy'], 'no-referrer');
    assert.equal(headers['Cache-Control'], 'no-store');
    assert.equal(headers['X-Content-Type-Options'], 'nosniff');
    assert.match(headers['Permissions-Policy']!, /camera=\(self\), microphone=\(self\)/);
    const message = pageHeaders({ kind: 'message', host: 'a.test', embeddable: false, imageOrigins: [] });
    assert.match(message['Permissions-Policy']!, /camera=\(\), microphone=\(\)/);
    assert.doesNotMatch(message['Content-Security-Policy']!, /script-src/);
  });

  it('reduces configured URLs to origins', () => {
    assert.equal(originOf('https://cdn.example.com/media/'), 'https://cdn.example.com');
    assert.equal(originOf('ftp://example.com'), null);
    assert.equal(originOf('not a url'), null);
    assert.equal(originOf(null), null);
  });
});
