// The live-session engine: the hub holding each meeting's realtime session, and the room API and
// WebSocket it answers on (outside the authenticated /v1 scope: the room token authorises).
import type { CoreDeps } from '../../core/deps.ts';
import type { AppInstance } from '../../core/http/types.ts';
import type { LlmClient } from '../../core/llm/index.ts';
import type { FeedbackService } from '../feedback/service.ts';
import type { MeetingLifecycle } from '../meetings/lifecycle.ts';
import type { RecordingService } from '../recordings/service.ts';
import type { SpeechEngines } from '../speech/types.ts';
import { promptPreviewRoutes } from './preview-routes.ts';
import { registerRoomRoutes } from './room-routes.ts';
import { MeetingSessionHub, type MeetingSessionHubDeps } from './session-hub.ts';
import { speechCapabilities } from './voice/connection-voice.ts';
import { createWebSearch } from './web-search.ts';

export type LiveHubOverrides = Partial<
  Pick<
    MeetingSessionHubDeps,
    | 'fillerDelayMs'
    | 'fillerIntervalMs'
    | 'maxFillersPerTurn'
    | 'idleCheckMs'
    | 'reconnectGraceMs'
    | 'heartbeatMs'
    | 'handoverReplyMs'
    | 'createSegmenter'
  >
>;

export interface LiveModuleDeps
  extends Pick<CoreDeps, 'db' | 'database' | 'clock' | 'secretBox' | 'config' | 'logger'> {
  lifecycle: MeetingLifecycle;
  recordings: RecordingService;
  /** Post-call feedback, which the participant gives in the room after the end. */
  feedback: FeedbackService;
  outbound: MeetingSessionHubDeps['outbound'];
  llm: LlmClient | null;
  /** Speech to text and text to speech, built once by the composition root (either may be null). */
  speech: SpeechEngines;
  /** Tests: shorter filler timings, idle checks, reconnect grace or heartbeat; a segmenter of their own. */
  hub?: LiveHubOverrides;
}

export function createLiveModule(deps: LiveModuleDeps) {
  const { db, database, clock, secretBox, config, logger, lifecycle, recordings } = deps;
  const hub = new MeetingSessionHub({
    database,
    clock,
    secretBox,
    logger: logger.child({ component: 'live' }),
    config,
    lifecycle,
    outbound: deps.outbound,
    llm: deps.llm,
    webSearch: config.searchUrl ? createWebSearch(config.searchUrl) : null,
    speech: deps.speech,
    voiceEndSilenceMs: config.speech.endSilenceMs,
    voiceEndOfTurn: config.speech.endOfTurn,
    ...deps.hub,
  });
  const publicRoutes = [
    async (app: AppInstance) => {
      await registerRoomRoutes(app, {
        db,
        clock,
        publicUrl: config.publicUrl,
        hub,
        recordings,
        feedback: deps.feedback,
        speech: speechCapabilities(deps.speech),
        wsMaxBufferedBytes: deps.config.wsMaxBufferedBytes,
      });
      app.addHook('onReady', () => hub.start());
      app.addHook('onClose', () => hub.stop());
    },
  ];
  const routes = [
    (app: AppInstance) =>
      promptPreviewRoutes(app, {
        preview: {
          db,
          secretBox,
          logger: logger.child({ component: 'prompt-preview' }),
          webSearch: Boolean(config.searchUrl),
        },
      }),
  ];
  return { hub, routes, publicRoutes };
}
