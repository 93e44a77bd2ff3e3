import type { WebsocketPluginOptions } from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';

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
  closeGoingAway(this, done);
};

function closeGoingAway(app: FastifyInstance, done: () => void): void {
  for (const client of app.websocketServer.clients) {
    client.close(WS_GOING_AWAY.code, WS_GOING_AWAY.reason);
    setTimeout(() => client.terminate(), CLOSE_HANDSHAKE_MS).unref();
  }
  app.server.removeAllListeners('upgrade');
  app.websocketServer.close();
  done();
}

/**
 * The same, after `handOff` has had its say: the listener stops taking connections first (a load
 * balancer sends reconnecting rooms to another instance: its connect is refused here), then
 * `handOff` closes what it holds its own way (the live meetings' 1012), then the rest go with 1001.
 */
export function closeSocketsAfter(
  handOff: () => Promise<void>,
): NonNullable<WebsocketPluginOptions['preClose']> {
  return function (done) {
    // Fastify closes the server again after preClose and takes "not running" in its stride.
    if (this.server.listening) this.server.close();
    handOff()
      .catch(() => {})
      .finally(() => closeGoingAway(this, done));
  };
}
