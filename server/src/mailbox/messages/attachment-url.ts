import { invalidParam } from '../../core/http/errors.ts';
import { type OutboundClient, OutboundError, type OutboundHeaders } from '../../core/outbound/index.ts';

export interface FetchedAttachment {
  content: Buffer;
  /** The response's media type (parameters dropped), or null when it gave none worth keeping. */
  content_type: string | null;
  /** The last path segment of the URL, or null when it has none. */
  filename: string | null;
}

/** Long enough for a slow object store, short enough that a send does not hang on one URL. */
export const ATTACHMENT_URL_TIMEOUT_MS = 15_000;
/** Presigned and CDN URLs redirect once or twice; each hop is vetted again by the client. */
const MAX_REDIRECTS = 3;
const MEDIA_TYPE = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/;

/**
 * Attachments given by `url`: fetched through the SSRF-safe outbound client (the same address
 * policy as webhooks: private and loopback ranges refused unless OUTBOUND_ALLOW_CIDRS allows them,
 * https required in production), bounded in time and size. Any refusal is a 400 naming the field.
 */
export class AttachmentFetcher {
  constructor(
    private readonly client: { request: OutboundClient['request'] },
    private readonly timeoutMs = ATTACHMENT_URL_TIMEOUT_MS,
  ) {}

  /** `maxBytes` is what is left of the message's size limit; `param` names the field in errors. */
  async fetch(url: string, maxBytes: number, param: string): Promise<FetchedAttachment> {
    let target = url;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop += 1) {
      const response = await this.get(target, maxBytes, param);
      const location = header(response.headers, 'location');
      if (response.status >= 300 && response.status < 400 && location) {
        target = redirectTarget(location, target, param);
        continue;
      }
      if (response.status < 200 || response.status > 299)
        throw invalidParam(
          param,
          `Could not fetch the attachment: the URL answered HTTP ${response.status}.`,
        );
      if (response.truncated || response.body.length > maxBytes)
        throw invalidParam(
          param,
          `The attachment is larger than the ${maxBytes} bytes left of the message limit.`,
        );
      return {
        content: response.body,
        content_type: mediaTypeOf(header(response.headers, 'content-type')),
        filename: filenameOf(target),
      };
    }
    throw invalidParam(param, `Could not fetch the attachment: more than ${MAX_REDIRECTS} redirects.`);
  }

  private async get(url: string, maxBytes: number, param: string) {
    try {
      return await this.client.request({
        url,
        method: 'GET',
        timeoutMs: this.timeoutMs,
        // One byte more than allowed tells "exactly the limit" from "over it".
        maxResponseBytes: maxBytes + 1,
      });
    } catch (error) {
      if (error instanceof OutboundError)
        throw invalidParam(param, `Could not fetch the attachment: ${error.message} (${error.code}).`);
      throw error;
    }
  }
}

/** A redirect's Location resolved against the URL that answered it; a malformed one is a 400. */
function redirectTarget(location: string, base: string, param: string): string {
  try {
    return new URL(location, base).toString();
  } catch {
    throw invalidParam(param, 'Could not fetch the attachment: invalid redirect Location.');
  }
}

function header(headers: OutboundHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function mediaTypeOf(value: string | undefined): string | null {
  const type = value?.split(';')[0]?.trim().toLowerCase();
  return type && MEDIA_TYPE.test(type) ? type : null;
}

function filenameOf(url: string): string | null {
  const segment = new URL(url).pathname.split('/').pop() ?? '';
  let name: string;
  try {
    name = decodeURIComponent(segment);
  } catch {
    name = segment;
  }
  // Control characters and path separators have no place in a filename header.
  name = [...name]
    .map((char) => (char < ' ' || char === '\x7f' || '/\\"'.includes(char) ? '_' : char))
    .join('')
    .trim();
  return name ? name.slice(0, 255) : null;
}
