// Server-sent events as OpenAI-compatible endpoints stream them: `data: <json>` lines separated
// by blank lines, ending with `data: [DONE]`. Comments (`:`) and other fields are ignored.

/** Yields the `data` payload of each event (multi-line data joined with "\n"). */
export async function* sseData(body: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  const flushLine = function* (line: string): Generator<string> {
    if (line === '') {
      if (data.length > 0) yield data.join('\n');
      data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    if (field !== 'data') return;
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    data.push(value);
  };
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    let newline = buffer.search(/\r\n|\r|\n/);
    // A trailing "\r" may be the first half of "\r\n": wait for the next chunk to tell.
    while (newline !== -1 && !(newline === buffer.length - 1 && buffer[newline] === '\r')) {
      const line = buffer.slice(0, newline);
      const width = buffer.startsWith('\r\n', newline) ? 2 : 1;
      buffer = buffer.slice(newline + width);
      yield* flushLine(line);
      newline = buffer.search(/\r\n|\r|\n/);
    }
  }
  buffer += decoder.decode();
  if (buffer) yield* flushLine(buffer);
  yield* flushLine('');
}
