// web_search: a search adapter configured by SEARCH_URL, speaking the SearxNG JSON API
// (`GET <SEARCH_URL>?q=<query>&format=json` → `{ results: [{ title, url, content }] }`). The URL is
// operator configuration, so it is called directly (not through the customer-URL client).

export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

export interface WebSearch {
  search(query: string, signal?: AbortSignal): Promise<SearchResult[]>;
}

const RESULTS = 5;
const TIMEOUT_MS = 8_000;
const SNIPPET_MAX = 500;

export function createWebSearch(searchUrl: string, fetchImpl: typeof fetch = fetch): WebSearch {
  return {
    async search(query, signal) {
      const url = new URL(searchUrl);
      url.searchParams.set('q', query);
      url.searchParams.set('format', 'json');
      const timeout = AbortSignal.timeout(TIMEOUT_MS);
      const response = await fetchImpl(url, {
        headers: { accept: 'application/json' },
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        redirect: 'error',
      });
      if (!response.ok) throw new Error(`search answered HTTP ${response.status}`);
      const payload = (await response.json()) as { results?: Array<Record<string, unknown>> };
      return (payload.results ?? []).slice(0, RESULTS).map((result) => ({
        title: String(result.title ?? ''),
        url: String(result.url ?? ''),
        snippet: String(result.content ?? result.snippet ?? '').slice(0, SNIPPET_MAX),
      }));
    },
  };
}
