import { describe, expect, it } from 'vitest';
import { parseEventStream } from './jarvis-stream';

describe('parseEventStream', () => {
  it('reads complete events and keeps a half-received one for the next chunk', () => {
    const { events, rest } = parseEventStream('event: delta\ndata: {"event":"delta","text":"Re"}\n\n: keep-alive\n\nevent: delta\ndata: {"event":"del');
    expect(events).toEqual([{ event: 'delta', data: '{"event":"delta","text":"Re"}' }]);
    expect(rest).toBe('event: delta\ndata: {"event":"del');
  });

  it('joins multi-line data and accepts CRLF line ends', () => {
    expect(parseEventStream('data: a\r\ndata: b\r\n\r\n').events).toEqual([{ event: 'message', data: 'a\nb' }]);
  });
});
