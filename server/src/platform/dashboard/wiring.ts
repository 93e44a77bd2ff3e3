import type { CoreDeps } from '../../core/deps.ts';
import type { AppInstance } from '../../core/http/types.ts';
import { originOf } from '../room/headers.ts';
import { registerDashboard } from './plugin.ts';

/** The dashboard page at `/` (outside /v1); it calls the public API like any other client. */
export function createDashboardModule(deps: Pick<CoreDeps, 'config'>) {
  const { config } = deps;
  const media = [originOf(config.mediaPublicUrl)].filter((origin): origin is string => origin !== null);
  // The mailbox view calls the mailbox's /v0 itself, with a key the user pastes (docs/dashboard.md).
  const mailbox = originOf(config.mailboxPublicUrl);
  return {
    publicRoutes: [
      (app: AppInstance) =>
        registerDashboard(app, {
          connectOrigins: mailbox ? [mailbox] : [],
          mediaOrigins: media,
          pageMeta: { 'understudy-mailbox-url': config.mailboxPublicUrl },
        }),
    ],
  };
}
