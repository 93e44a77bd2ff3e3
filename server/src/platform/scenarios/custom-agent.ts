// The custom agent configuration of a scenario (spec: "Custom agent configuration"): validation,
// storage (the API key and every extra header value sealed), masking on read, and the clear form
// the live engine uses.
import { isIP } from 'node:net';
import type { Kysely } from 'kysely';
import { SecretBox } from '../../core/crypto/secret-box.ts';
import type { DB } from '../../core/db/schema.ts';
import { AppError, invalidParam } from '../../core/http/errors.ts';
import {
  classifyAddress,
  isAddressAllowed,
  type OutboundPolicy,
} from '../../core/outbound/address-policy.ts';
import { type ScenarioRow, scenarioRepository } from './repository.ts';

export const CUSTOM_AGENT_DEFAULT_MODEL = 'waterr-agent';
export const CUSTOM_AGENT_DEFAULT_TIMEOUT_S = 10;
export const CUSTOM_AGENT_MAX_TIMEOUT_S = 30;
export const EXTRA_HEADERS_MAX = 20;

const P = 'custom_agent_config';
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
/** The spec's three, plus framing headers that would corrupt the request if overridden. */
const REFUSED_HEADERS = new Set([
  'host',
  'authorization',
  'content-length',
  'transfer-encoding',
  'connection',
]);

export interface CustomAgentConfigInput {
  base_url?: string;
  api_key?: string | null;
  model?: string;
  timeout_s?: number;
  extra_headers?: Record<string, string>;
}

/** The stored columns of the configuration. */
export interface CustomAgentColumns {
  custom_agent_base_url: string | null;
  custom_agent_api_key: string | null;
  custom_agent_model: string;
  custom_agent_timeout_s: number;
  /** JSON of `{ name: sealed value }`: a header may carry a credential, so values are sealed. */
  custom_agent_extra_headers: string;
}

/** What the live engine needs to call the customer's endpoint, API key in clear. */
export interface CustomAgentRuntimeConfig {
  enabled: boolean;
  base_url: string;
  api_key: string | null;
  model: string;
  timeout_s: number;
  extra_headers: Record<string, string>;
}

/**
 * `base_url` must be HTTPS. Outside production, plain http is accepted only for an IP address that
 * OUTBOUND_ALLOW_CIDRS explicitly allows (local test agents); whether a public name resolves to a
 * private address is checked at meeting creation and on every call.
 */
export function checkBaseUrl(raw: string, policy: OutboundPolicy): string {
  const param = `${P}.base_url`;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw invalidParam(param, 'base_url must be an absolute https URL, e.g. https://agent.example.com/v1.');
  }
  if (url.username || url.password) throw invalidParam(param, 'base_url must not contain credentials.');
  if (url.search || url.hash) throw invalidParam(param, 'base_url must not have a query string or fragment.');
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && allowedPlainHttp(url, policy))) {
    throw invalidParam(param, 'base_url must be an https URL.');
  }
  return url.toString().replace(/\/+$/, '');
}

function allowedPlainHttp(url: URL, policy: OutboundPolicy): boolean {
  if (policy.requireHttps) return false;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return isIP(host) !== 0 && classifyAddress(host).blocked && isAddressAllowed(host, policy);
}

export function checkExtraHeaders(headers: Record<string, string>): Record<string, string> {
  const entries = Object.entries(headers);
  if (entries.length > EXTRA_HEADERS_MAX) {
    throw invalidParam(`${P}.extra_headers`, `At most ${EXTRA_HEADERS_MAX} extra headers are allowed.`);
  }
  const seen = new Set<string>();
  for (const [name, value] of entries) {
    const param = `${P}.extra_headers.${name}`;
    const lower = name.toLowerCase();
    if (!HEADER_NAME.test(name)) throw invalidParam(param, `"${name}" is not a valid header name.`);
    if (REFUSED_HEADERS.has(lower) || lower.startsWith('x-internal-')) {
      throw invalidParam(
        param,
        `The ${name} header cannot be set: Host, Authorization and X-Internal-* are reserved.`,
      );
    }
    if (typeof value !== 'string' || /[\r\n\0]/.test(value) || value.length > 1000) {
      throw invalidParam(param, `The value of ${name} must be a single line of at most 1,000 characters.`);
    }
    if (seen.has(lower)) throw invalidParam(param, `The ${name} header is given twice.`);
    seen.add(lower);
  }
  return Object.fromEntries(entries);
}

/**
 * Merges a partial configuration into the stored one: fields left out keep their value;
 * `api_key: null` removes the key, and a masked key sent back unchanged keeps it.
 * `config: null` clears the whole configuration.
 */
export function mergeCustomAgent(
  current: CustomAgentColumns | null,
  input: CustomAgentConfigInput | null | undefined,
  deps: { secretBox: SecretBox; policy: OutboundPolicy },
): CustomAgentColumns | undefined {
  if (input === undefined) return undefined;
  if (input === null) {
    return {
      custom_agent_base_url: null,
      custom_agent_api_key: null,
      custom_agent_model: CUSTOM_AGENT_DEFAULT_MODEL,
      custom_agent_timeout_s: CUSTOM_AGENT_DEFAULT_TIMEOUT_S,
      custom_agent_extra_headers: '{}',
    };
  }
  const baseUrl =
    input.base_url !== undefined
      ? checkBaseUrl(input.base_url, deps.policy)
      : (current?.custom_agent_base_url ?? null);
  if (!baseUrl) {
    throw new AppError('parameter_missing', 'custom_agent_config.base_url is required.', {
      param: `${P}.base_url`,
    });
  }
  // `minLength` lets spaces through; a blank model would otherwise be dropped without a word.
  if (input.model !== undefined && !input.model.trim()) {
    throw invalidParam(`${P}.model`, 'model must not be blank; leave it out for the default.');
  }
  let apiKey = current?.custom_agent_api_key ?? null;
  if (input.api_key === null) apiKey = null;
  else if (input.api_key !== undefined) {
    const currentMask = apiKey ? maskApiKey(deps.secretBox.open(apiKey)) : null;
    if (input.api_key !== currentMask) {
      if (input.api_key.trim() === '')
        throw invalidParam(`${P}.api_key`, 'api_key must not be blank; send null to remove it.');
      apiKey = deps.secretBox.seal(input.api_key);
    }
  }
  return {
    custom_agent_base_url: baseUrl,
    custom_agent_api_key: apiKey,
    custom_agent_model: input.model?.trim() || current?.custom_agent_model || CUSTOM_AGENT_DEFAULT_MODEL,
    custom_agent_timeout_s:
      input.timeout_s ?? current?.custom_agent_timeout_s ?? CUSTOM_AGENT_DEFAULT_TIMEOUT_S,
    custom_agent_extra_headers: JSON.stringify(
      input.extra_headers !== undefined
        ? mergeExtraHeaders(currentHeaders(current), checkExtraHeaders(input.extra_headers), deps.secretBox)
        : currentHeaders(current),
    ),
  };
}

/**
 * The new set of headers, sealed. Like the API key, a value sent back exactly as a read masked it
 * (same header name) keeps the stored value, so a read-modify-write does not overwrite a
 * credential with its mask.
 */
function mergeExtraHeaders(
  sealedCurrent: Record<string, string>,
  input: Record<string, string>,
  secretBox: SecretBox,
): Record<string, string> {
  const merged: Record<string, string> = {};
  for (const [name, value] of Object.entries(input)) {
    const kept = sealedCurrent[name];
    merged[name] =
      kept !== undefined && value === maskApiKey(openHeader(kept, secretBox)) ? kept : secretBox.seal(value);
  }
  return merged;
}

function currentHeaders(current: CustomAgentColumns | null): Record<string, string> {
  if (!current) return {};
  const raw = current.custom_agent_extra_headers as unknown;
  return typeof raw === 'string' ? JSON.parse(raw) : ((raw as Record<string, string>) ?? {});
}

/** Stored header values sealed (what the column holds) from their clear form. */
export function sealExtraHeaders(headers: Record<string, string>, secretBox: SecretBox) {
  return mapValues(headers, (value) => secretBox.seal(value));
}

/** The clear values, for the live engine's request and the scenario export only. */
export function openExtraHeaders(stored: Record<string, string> | null, secretBox: SecretBox) {
  return mapValues(stored ?? {}, (value) => openHeader(value, secretBox));
}

/** What reads show: names kept, values masked like the API key. */
export function maskExtraHeaders(stored: Record<string, string> | null, secretBox: SecretBox) {
  return mapValues(stored ?? {}, (value) => maskApiKey(openHeader(value, secretBox)));
}

/**
 * One stored value in clear. A value still in clear (written by an instance of the previous
 * version during a rolling deploy, before migration 0063 sealed the rest) is read as it is.
 */
function openHeader(value: string, secretBox: SecretBox): string {
  return SecretBox.looksSealed(value) ? secretBox.open(value) : value;
}

function mapValues(record: Record<string, string>, fn: (value: string) => string): Record<string, string> {
  return Object.fromEntries(Object.entries(record).map(([name, value]) => [name, fn(value)]));
}

/** `sk-live-…abcd` → `****abcd`; secrets too short to show a tail safely → `****`. */
export function maskApiKey(key: string): string {
  return key.length >= 12 ? `****${key.slice(-4)}` : '****';
}

export function columnsOf(row: ScenarioRow): CustomAgentColumns {
  return {
    custom_agent_base_url: row.custom_agent_base_url,
    custom_agent_api_key: row.custom_agent_api_key,
    custom_agent_model: row.custom_agent_model,
    custom_agent_timeout_s: row.custom_agent_timeout_s,
    custom_agent_extra_headers: JSON.stringify(row.custom_agent_extra_headers ?? {}),
  };
}

/**
 * The configuration as every read shows it: the API key and header values masked; null when none
 * is configured.
 */
export function renderCustomAgent(row: ScenarioRow, secretBox: SecretBox) {
  if (!row.custom_agent_base_url) return null;
  return {
    base_url: row.custom_agent_base_url,
    api_key: row.custom_agent_api_key ? maskApiKey(secretBox.open(row.custom_agent_api_key)) : null,
    model: row.custom_agent_model,
    timeout_s: row.custom_agent_timeout_s,
    extra_headers: maskExtraHeaders(row.custom_agent_extra_headers, secretBox),
  };
}

/**
 * For the live engine: the scenario's custom agent with the API key in clear, or null when the
 * scenario does not use one (or is absent from the workspace). The caller must still vet
 * base_url (public HTTPS) through the outbound client before calling it.
 */
export async function customAgentForScenario(
  db: Kysely<DB>,
  secretBox: SecretBox,
  accountId: string,
  scenarioId: string,
): Promise<CustomAgentRuntimeConfig | null> {
  const row = await scenarioRepository.findEvenDeleted(db, accountId, scenarioId);
  if (!row?.custom_agent_enabled || !row.custom_agent_base_url) return null;
  return {
    enabled: true,
    base_url: row.custom_agent_base_url,
    api_key: row.custom_agent_api_key ? secretBox.open(row.custom_agent_api_key) : null,
    model: row.custom_agent_model,
    timeout_s: row.custom_agent_timeout_s,
    extra_headers: openExtraHeaders(row.custom_agent_extra_headers, secretBox),
  };
}
