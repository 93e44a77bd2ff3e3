import { marked } from 'marked';
import { escapeHtml } from '../../core/html.ts';
import { ERROR_CODES, type ErrorCode } from '../../core/http/errors.ts';
import { ERROR_CATALOG } from '../../core/http/errors-catalog.ts';
import { page } from './layout.ts';

const STATUS_NAMES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

/** The catalog's text allows inline Markdown (`code`); nothing else. */
const inline = (text: string) => marked.parseInline(text, { async: false });

const EXAMPLE = `{
  "status": "error",
  "message": "No such scenario.",
  "error": {
    "type": "invalid_request_error",
    "code": "resource_not_found",
    "message": "No such scenario.",
    "param": "id",
    "doc_url": "https://understudy.example.com/docs/errors#resource_not_found"
  },
  "request_id": "req_8f14e45fceea167a5a36dedd"
}`;

function codeSection(code: ErrorCode): string {
  const { status, type } = ERROR_CODES[code];
  const explanation = ERROR_CATALOG[code];
  const causes = explanation.causes.map((cause) => `<li>${inline(cause)}</li>`).join('');
  return `<section class="error-code" id="${code}" aria-labelledby="${code}-title">
<h3 id="${code}-title"><a class="anchor" href="#${code}" aria-hidden="true" tabindex="-1">#</a><code>${code}</code></h3>
<p class="badges"><span class="badge badge-status">HTTP ${status}</span> <span class="badge">${type}</span></p>
<p class="lead">${inline(explanation.summary)}</p>
<h4>Common causes</h4>
<ul>${causes}</ul>
<h4>What to do</h4>
<p>${inline(explanation.fix)}</p>
</section>`;
}

/** `/docs/errors`: one section per code (its id is the code), grouped by HTTP status. */
export function errorsPage(): string {
  const codes = Object.keys(ERROR_CODES) as ErrorCode[];
  const statuses = [...new Set(codes.map((code) => ERROR_CODES[code].status))].sort((a, b) => a - b);
  const groups = statuses
    .map((status) => {
      const members = codes.filter((code) => ERROR_CODES[code].status === status);
      const heading = `${status} ${STATUS_NAMES[status] ?? ''}`.trim();
      return `<h2 id="status-${status}">${escapeHtml(heading)}</h2>\n${members.map(codeSection).join('\n')}`;
    })
    .join('\n');
  const index = statuses
    .map((status) => {
      const members = codes.filter((code) => ERROR_CODES[code].status === status);
      const links = members.map((code) => `<li><a href="#${code}"><code>${code}</code></a></li>`).join('');
      return `<div class="nav-group"><h2><a href="#status-${status}">${status}</a></h2><ul>${links}</ul></div>`;
    })
    .join('');
  const main = `<article class="prose">
<h1>Errors</h1>
<p class="lead">Both services answer every failure in one shape. <code>error.code</code> is stable and names the section below; <code>error.type</code> groups codes into the kinds the SDKs raise as exception classes; <code>param</code> names the offending parameter or header; <code>doc_url</code> links here.</p>
<pre><code>${escapeHtml(EXAMPLE)}</code></pre>
<p>Quote <code>request_id</code> (also sent as the <code>X-Request-Id</code> header) when you contact support. Responses to <code>429</code> and <code>409 idempotency_key_in_use</code> carry <code>Retry-After</code>; retry those, <code>5xx</code> answers and network failures with the same <code>Idempotency-Key</code>. Other <code>4xx</code> answers fail the same way until the request changes. Errors of the mailbox service link here as well (its <code>doc_url</code> is built from the same <code>PUBLIC_URL</code>).</p>
${groups}
</article>`;
  return page({ title: 'Errors', current: 'errors', main, sidebar: index });
}
