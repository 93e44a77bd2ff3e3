import type { WebsocketPluginOptions } from '@fastify/websocket';

/** WebSocket close code of a shutdown: 1001 "going away", so clients know to reconnect. */
export const WS_GOING_AWAY = { code: 1001, reason: 'server shutting down' } as const;

/** How long a client has to answer the 1001 close frame before its socket is cut. */
const CLOSE_HANDSHAKE_MS = 1_000;

/**
 * @fastify/websocket's preClose for both apps: every open socket is closed with 1001 (the plugin's
 * own closes them without a code, which clients see as 1005) and no new upgrade is accepted. A
 * client that does not answer the close is cut after a second (ws itself would wait 30 s, past
 * SHUTDOWN_TIMEOUT_MS).
 */
export const closeSocketsGoingAway: NonNullable<WebsocketPluginOptions['preClose']> = function (done) {
  for (const client of this.websocketServer.clients) {
    client.close(WS_GOING_AWAY.code, WS_GOING_AWAY.reason);
    setTimeout(() => client.terminate(), CLOSE_HANDSHAKE_MS).unref();
  }
  this.server.removeAllListeners('upgrade');
  this.websocketServer.close();
  done();
};
