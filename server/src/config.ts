import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseCidrList } from './core/outbound/address-policy.ts';

export type AppEnv = 'development' | 'production';

export const STT_ENGINES = ['auto', 'pocketsphinx', 'openai', 'off'] as const;
export const TTS_ENGINES = ['auto', 'flite', 'openai', 'off'] as const;

/** An OpenAI-compatible audio endpoint (STT_* or TTS_*); the engine may still be off. */
export interface SpeechEndpointConfig {
  baseUrl: string | null;
  apiKey: string | null;
  model: string;
}

/** Speech in the meeting room (docs/speech.md); engines are chosen in platform/speech/wiring.ts. */
export interface SpeechConfig {
  stt: SpeechEndpointConfig & {
    engine: (typeof STT_ENGINES)[number];
    /** OpenAI-compatible recogniser: interim re-transcription period, 0 = off (STT_INTERIM_INTERVAL_MS). */
    interimIntervalMs: number;
  };
  tts: SpeechEndpointConfig & { engine: (typeof TTS_ENGINES)[number] };
  /** Silence that ends an utterance (VOICE_END_SILENCE_MS); the adaptive policy's default. */
  endSilenceMs: number;
  /** `adaptive`: the silence is decided each pause from the words and the voice (VOICE_END_OF_TURN). */
  endOfTurn: (typeof END_OF_TURN)[number];
}

export const END_OF_TURN = ['adaptive', 'fixed'] as const;

export interface Config {
  port: number;
  mailboxPort: number;
  /**
   * Where browsers reach the mailbox's /v0 API (MAILBOX_PUBLIC_URL): the dashboard's mailbox view
   * calls it directly. Default: PUBLIC_URL's host on MAILBOX_PORT.
   */
  mailboxPublicUrl: string;
  /** Listen address (HOST): 127.0.0.1 in development, 0.0.0.0 in production, unless set. */
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | null;
  /**
   * PostgreSQL bounds: how long to wait for a new connection (DATABASE_CONNECT_TIMEOUT_MS) and
   * for one statement (DATABASE_STATEMENT_TIMEOUT_MS, the server's statement_timeout; 0 = none).
   */
  database: { connectTimeoutMs: number; statementTimeoutMs: number };
  redisUrl: string | null;
  /**
   * Redis bounds: a command that takes longer fails (REDIS_COMMAND_TIMEOUT_MS) and opens the
   * circuit; while it is open a PING every REDIS_PROBE_INTERVAL_MS looks for recovery.
   */
  redis: { commandTimeoutMs: number; probeIntervalMs: number };
  encryptionKey: Buffer;
  appEnv: AppEnv;
  signupEnabled: boolean;
  logLevel: string;
  /**
   * The external OpenID Connect issuer: its bearer tokens are accepted (audience OIDC_AUDIENCE) and,
   * with OIDC_CLIENT_ID, the dashboard signs in through it (authorization code with PKCE).
   */
  oidc: {
    issuer: string;
    audience: string;
    clientId: string | null;
    clientSecret: string | null;
    /** Shown on the sign-in button (OIDC_PROVIDER_NAME, else the issuer's host). */
    providerName: string;
  } | null;
  outboundAllowCidrs: string;
  /** Roles this process runs: the HTTP API, the background workers, or both. */
  runWorkers: boolean;
  /** SHUTDOWN_TIMEOUT_MS: on SIGTERM, how long HTTP requests, SMTP sessions and jobs may take to finish. */
  shutdownTimeoutMs: number;
  /**
   * Background work (docs/reliability.md, "Crash recovery"): how long a job claim (JOB_LEASE_MS)
   * and a webhook delivery claim (DELIVERY_LEASE_MS) last without their worker's heartbeat, and the
   * safety-net poll of idle workers, which otherwise wake on NOTIFY and at the next due time they
   * read (WORKER_IDLE_POLL_MS).
   */
  jobs: { leaseMs: number; deliveryLeaseMs: number; idlePollMs: number };
  /** Legacy per-scenario webhooks stop after this instant. */
  legacyWebhookSunset: Date;
  llm: { baseUrl: string; apiKey: string | null; model: string } | null;
  smtpUrl: string | null;
  mailDomain: string;
  mailboxAdminKey: string | null;
  smtpPort: number;
  mailRelayUrl: string | null;
  /** STARTTLS on the SMTP listener when both are set (SMTP_TLS_KEY / SMTP_TLS_CERT, PEM files). */
  smtpTls: { keyPath: string; certPath: string } | null;
  /** Largest inbound or outbound message accepted, in bytes (MAIL_MAX_MESSAGE_BYTES). */
  mailMaxMessageBytes: number;
  /** How long a send call waits for its first relay attempt before answering `sending` (MAIL_SEND_WAIT_MS; 0: never waits). */
  mailSendWaitMs: number;
  /** DNS servers for custom-domain verification (MAILBOX_DNS_SERVERS, `host` or `host:port`, comma-separated); empty = system. */
  mailboxDnsServers: string[];
  /** Requests per key and window on /v0 (MAILBOX_RATE_LIMIT, MAILBOX_RATE_WINDOW_SECONDS; spec: 300 per 60 s). */
  mailboxRateLimit: { points: number; durationSeconds: number };
  /** S3-compatible object storage when S3_ENDPOINT, S3_BUCKET and both keys are set; else local disk. */
  s3: {
    endpoint: string;
    bucket: string;
    region: string;
    accessKeyId: string;
    secretAccessKey: string;
    prefix: string;
  } | null;
  mediaPublicUrl: string | null;
  searchUrl: string | null;
  /**
   * Per-credential budgets; the spec's values by default, raised for load tests. `publicPerMinute`
   * is the per-address budget of /v1 requests without a valid credential (401s, wrong room tokens);
   * `roomPerMinute` the per-meeting budget of room requests whose room token opens the meeting.
   */
  rateLimit: {
    perMinute: number;
    writesPerMinute: number;
    authPerMinute: number;
    publicPerMinute: number;
    roomPerMinute: number;
    /** Meetings an open practice link starts per client address an hour (ten times that per link). */
    openPracticePerHour: number;
  };
  /**
   * Reverse proxies in front of the server whose `X-Forwarded-For` is believed (TRUST_PROXY_HOPS):
   * per-address budgets then count the client's address, not the proxy's. 0 ignores the header.
   */
  trustProxyHops: number;
  /** Bearer token that opens /metrics (METRICS_TOKEN); without it /metrics answers loopback clients only. */
  metricsToken: string | null;
  speech: SpeechConfig;
  /** Connection bounds of both HTTP servers (docs/reliability.md, "Bounds and timeouts"). */
  http: HttpBounds;
  /** The SMTP listener's idle-socket timeout and how long `close()` waits for sessions (SMTP_*_TIMEOUT_MS). */
  smtpTimeouts: { socketMs: number; closeMs: number };
  /** A WebSocket whose unsent backlog passes this many bytes is closed (WS_MAX_BUFFERED_BYTES). */
  wsMaxBufferedBytes: number;
}

/** Timeouts of the HTTP servers, in milliseconds. */
export interface HttpBounds {
  /** From the connection (or the end of the previous response) to the last header (HTTP_HEADERS_TIMEOUT_MS). */
  headersTimeoutMs: number;
  /** From the headers to the last byte of a request body (HTTP_BODY_TIMEOUT_MS). */
  bodyTimeoutMs: number;
  /** The same for the streamed media uploads, which may be hundreds of MiB (HTTP_UPLOAD_TIMEOUT_MS). */
  uploadTimeoutMs: number;
  /** An idle keep-alive connection is closed after this (HTTP_KEEP_ALIVE_TIMEOUT_MS). */
  keepAliveTimeoutMs: number;
}

export class ConfigError extends Error {}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

function url(env: NodeJS.ProcessEnv, name: string, protocols: string[]): string | null {
  const raw = env[name];
  if (!raw) return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL, got "${raw}"`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must use ${protocols.join(' or ')}, got "${parsed.protocol}"`);
  }
  return raw;
}

function bool(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['true', '1', 'yes'].includes(raw.toLowerCase())) return true;
  if (['false', '0', 'no'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

/** Reads ENCRYPTION_KEY (64 hex chars or base64 of 32 bytes), else a key generated once into DATA_DIR. */
function encryptionKey(raw: string | undefined, dataDir: string): Buffer {
  if (raw) {
    const key = /^[0-9a-fA-F]{64}$/.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
    if (key.length !== 32)
      throw new ConfigError('ENCRYPTION_KEY must be 32 bytes: 64 hex characters or base64');
    return key;
  }
  const file = join(dataDir, 'encryption.key');
  try {
    return Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const key = randomBytes(32);
    writeFileSync(file, key.toString('hex'), { mode: 0o600, flag: 'wx' });
    return key;
  }
}

/** Kept as written (each consumer parses it), but checked here so a typo stops the boot with its name. */
function cidrList(env: NodeJS.ProcessEnv, name: string): string {
  const raw = env[name] || '';
  try {
    parseCidrList(raw);
  } catch (error) {
    throw new ConfigError(`${name}: ${(error as Error).message}`);
  }
  return raw;
}

function smtpTls(env: NodeJS.ProcessEnv): Config['smtpTls'] {
  const keyPath = env.SMTP_TLS_KEY || '';
  const certPath = env.SMTP_TLS_CERT || '';
  if (!keyPath && !certPath) return null;
  if (!keyPath || !certPath) throw new ConfigError('SMTP_TLS_KEY and SMTP_TLS_CERT must be set together');
  return { keyPath: resolve(keyPath), certPath: resolve(certPath) };
}

function dnsServers(env: NodeJS.ProcessEnv): string[] {
  const raw = env.MAILBOX_DNS_SERVERS || '';
  const servers = raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  for (const server of servers) {
    if (!/^(\d{1,3}(\.\d{1,3}){3}(:\d{1,5})?|\[[0-9a-fA-F:]+\](:\d{1,5})?|[0-9a-fA-F:]+)$/.test(server)) {
      throw new ConfigError(
        `MAILBOX_DNS_SERVERS must list IP addresses (optionally with :port), got "${server}"`,
      );
    }
  }
  return servers;
}

function s3(env: NodeJS.ProcessEnv): Config['s3'] {
  const endpoint = url(env, 'S3_ENDPOINT', ['http:', 'https:']);
  const names = ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;
  if (!endpoint && names.every((name) => !env[name])) return null;
  const missing = [endpoint ? null : 'S3_ENDPOINT', ...names.filter((name) => !env[name])].filter(Boolean);
  if (missing.length > 0) throw new ConfigError(`S3 storage needs ${missing.join(', ')} as well`);
  return {
    endpoint: endpoint!,
    bucket: env.S3_BUCKET!,
    region: env.S3_REGION || 'us-east-1',
    accessKeyId: env.S3_ACCESS_KEY_ID!,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY!,
    prefix: env.S3_PREFIX || '',
  };
}

/** The HTTP bounds of `env` (the defaults for an empty one). */
export function httpBounds(env: NodeJS.ProcessEnv): HttpBounds {
  return {
    headersTimeoutMs: integer(env, 'HTTP_HEADERS_TIMEOUT_MS', 10_000, 50, 600_000),
    bodyTimeoutMs: integer(env, 'HTTP_BODY_TIMEOUT_MS', 30_000, 50, 3_600_000),
    uploadTimeoutMs: integer(env, 'HTTP_UPLOAD_TIMEOUT_MS', 600_000, 50, 86_400_000),
    keepAliveTimeoutMs: integer(env, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', 5_000, 50, 600_000),
  };
}

function oneOf<T extends string>(env: NodeJS.ProcessEnv, name: string, values: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = raw.toLowerCase() as T;
  if (!values.includes(value))
    throw new ConfigError(`${name} must be one of ${values.join(', ')}, got "${raw}"`);
  return value;
}

function speech(env: NodeJS.ProcessEnv): SpeechConfig {
  const endpoint = (prefix: 'STT' | 'TTS', model: string): SpeechEndpointConfig => ({
    baseUrl: url(env, `${prefix}_BASE_URL`, ['http:', 'https:'])?.replace(/\/+$/, '') ?? null,
    apiKey: env[`${prefix}_API_KEY`] || null,
    model: env[`${prefix}_MODEL`] || model,
  });
  const stt = {
    engine: oneOf(env, 'STT_ENGINE', STT_ENGINES, 'auto'),
    ...endpoint('STT', 'whisper-1'),
    interimIntervalMs: integer(env, 'STT_INTERIM_INTERVAL_MS', 1500, 0, 60_000),
  };
  // Each interim request re-sends the whole utterance so far: more often than twice a second
  // multiplies the cost without making the text appear sooner.
  if (stt.interimIntervalMs > 0 && stt.interimIntervalMs < 500) {
    throw new ConfigError(
      `STT_INTERIM_INTERVAL_MS must be 0 (off) or from 500 to 60000, got "${env.STT_INTERIM_INTERVAL_MS}"`,
    );
  }
  const tts = { engine: oneOf(env, 'TTS_ENGINE', TTS_ENGINES, 'auto'), ...endpoint('TTS', 'tts-1') };
  if (stt.engine === 'openai' && !stt.baseUrl) throw new ConfigError('STT_ENGINE=openai needs STT_BASE_URL');
  if (tts.engine === 'openai' && !tts.baseUrl) throw new ConfigError('TTS_ENGINE=openai needs TTS_BASE_URL');
  return {
    stt,
    tts,
    endSilenceMs: integer(env, 'VOICE_END_SILENCE_MS', 600, 200, 5000),
    endOfTurn: oneOf(env, 'VOICE_END_OF_TURN', END_OF_TURN, 'adaptive'),
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Readonly<Config> {
  const port = integer(env, 'PORT', 8080, 0, 65535);
  const appEnv = (env.APP_ENV || 'development') as AppEnv;
  if (appEnv !== 'development' && appEnv !== 'production') {
    throw new ConfigError(`APP_ENV must be development or production, got "${appEnv}"`);
  }
  // Development has sign-up open and /metrics unguarded: it listens on this machine only unless
  // HOST says otherwise. Production is meant to be reached, and is configured explicitly.
  const host = env.HOST || (appEnv === 'production' ? '0.0.0.0' : '127.0.0.1');
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel))
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const dataDir = resolve(env.DATA_DIR || './data');
  const databaseUrl = url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  const publicUrl = (url(env, 'PUBLIC_URL', ['http:', 'https:']) ?? `http://localhost:${port}`).replace(
    /\/$/,
    '',
  );
  if (appEnv === 'production' && !publicUrl.startsWith('https:')) {
    throw new ConfigError('PUBLIC_URL must be an https URL when APP_ENV=production');
  }
  const mailboxPort = integer(env, 'MAILBOX_PORT', 8081, 0, 65535);
  const mailboxPublicUrl = (
    url(env, 'MAILBOX_PUBLIC_URL', ['http:', 'https:']) ?? defaultMailboxUrl(publicUrl, mailboxPort)
  ).replace(/\/$/, '');
  const oidcIssuer = url(env, 'OIDC_ISSUER', ['http:', 'https:']);
  const sunsetRaw = env.LEGACY_WEBHOOK_SUNSET || '2026-09-25T00:00:00Z';
  const legacyWebhookSunset = new Date(sunsetRaw);
  if (Number.isNaN(legacyWebhookSunset.getTime())) {
    throw new ConfigError(`LEGACY_WEBHOOK_SUNSET must be an ISO date, got "${sunsetRaw}"`);
  }
  const llmBaseUrl = url(env, 'LLM_BASE_URL', ['http:', 'https:']);
  return Object.freeze({
    port,
    mailboxPort,
    mailboxPublicUrl,
    host,
    publicUrl,
    dataDir,
    databaseUrl,
    database: {
      connectTimeoutMs: integer(env, 'DATABASE_CONNECT_TIMEOUT_MS', 3_000, 100, 600_000),
      statementTimeoutMs: integer(env, 'DATABASE_STATEMENT_TIMEOUT_MS', 30_000, 0, 86_400_000),
    },
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    redis: {
      commandTimeoutMs: integer(env, 'REDIS_COMMAND_TIMEOUT_MS', 500, 10, 60_000),
      probeIntervalMs: integer(env, 'REDIS_PROBE_INTERVAL_MS', 1_000, 50, 60_000),
    },
    encryptionKey: encryptionKey(env.ENCRYPTION_KEY, dataDir),
    appEnv,
    signupEnabled: bool(env, 'SIGNUP_ENABLED', appEnv === 'development'),
    logLevel,
    oidc: oidcIssuer
      ? {
          issuer: oidcIssuer,
          audience: env.OIDC_AUDIENCE || 'understudy',
          clientId: env.OIDC_CLIENT_ID || null,
          clientSecret: env.OIDC_CLIENT_SECRET || null,
          providerName: env.OIDC_PROVIDER_NAME || new URL(oidcIssuer).host,
        }
      : null,
    outboundAllowCidrs: cidrList(env, 'OUTBOUND_ALLOW_CIDRS'),
    runWorkers: bool(env, 'RUN_WORKERS', true),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 15_000, 0, 600_000),
    jobs: {
      leaseMs: integer(env, 'JOB_LEASE_MS', 15_000, 1_000, 10 * 60_000),
      deliveryLeaseMs: integer(env, 'DELIVERY_LEASE_MS', 15_000, 1_000, 10 * 60_000),
      idlePollMs: integer(env, 'WORKER_IDLE_POLL_MS', 30_000, 100, 10 * 60_000),
    },
    legacyWebhookSunset,
    llm: llmBaseUrl
      ? {
          baseUrl: llmBaseUrl.replace(/\/$/, ''),
          apiKey: env.LLM_API_KEY || null,
          model: env.LLM_MODEL || 'gpt-4o-mini',
        }
      : null,
    smtpUrl: url(env, 'SMTP_URL', ['smtp:', 'smtps:']),
    mailDomain: env.MAIL_DOMAIN || 'mail.localhost',
    mailboxAdminKey: env.MAILBOX_ADMIN_KEY || null,
    smtpPort: integer(env, 'SMTP_PORT', 2525, 0, 65535),
    mailRelayUrl: url(env, 'MAIL_RELAY_URL', ['smtp:', 'smtps:']),
    smtpTls: smtpTls(env),
    mailMaxMessageBytes: integer(env, 'MAIL_MAX_MESSAGE_BYTES', 25 * 1024 * 1024, 1024, 200 * 1024 * 1024),
    mailSendWaitMs: integer(env, 'MAIL_SEND_WAIT_MS', 10_000, 0, 60_000),
    mailboxDnsServers: dnsServers(env),
    mailboxRateLimit: {
      points: integer(env, 'MAILBOX_RATE_LIMIT', 300, 1, 10_000_000),
      durationSeconds: integer(env, 'MAILBOX_RATE_WINDOW_SECONDS', 60, 1, 86_400),
    },
    s3: s3(env),
    mediaPublicUrl: url(env, 'MEDIA_PUBLIC_URL', ['http:', 'https:']),
    searchUrl: url(env, 'SEARCH_URL', ['http:', 'https:']),
    rateLimit: {
      perMinute: integer(env, 'RATE_LIMIT_PER_MINUTE', 600, 1, 10_000_000),
      writesPerMinute: integer(env, 'WRITE_RATE_LIMIT_PER_MINUTE', 120, 1, 10_000_000),
      authPerMinute: integer(env, 'AUTH_RATE_LIMIT_PER_MINUTE', 30, 1, 10_000_000),
      publicPerMinute: integer(env, 'PUBLIC_RATE_LIMIT_PER_MINUTE', 600, 1, 10_000_000),
      roomPerMinute: integer(env, 'ROOM_RATE_LIMIT_PER_MINUTE', 600, 1, 10_000_000),
      openPracticePerHour: integer(env, 'OPEN_PRACTICE_PER_HOUR', 30, 1, 10_000_000),
    },
    trustProxyHops: integer(env, 'TRUST_PROXY_HOPS', 0, 0, 10),
    metricsToken: env.METRICS_TOKEN || null,
    speech: speech(env),
    http: httpBounds(env),
    smtpTimeouts: {
      socketMs: integer(env, 'SMTP_SOCKET_TIMEOUT_MS', 60_000, 50, 3_600_000),
      closeMs: integer(env, 'SMTP_CLOSE_TIMEOUT_MS', 10_000, 0, 600_000),
    },
    wsMaxBufferedBytes: integer(env, 'WS_MAX_BUFFERED_BYTES', 4 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
  });
}

/** The mailbox beside the platform on the same host, as `npm start` runs them. */
function defaultMailboxUrl(publicUrl: string, mailboxPort: number): string {
  const parsed = new URL(publicUrl);
  return `${parsed.protocol}//${parsed.hostname}:${mailboxPort}`;
}
