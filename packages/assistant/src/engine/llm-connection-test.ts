// The settings screen's Test button: one short streamed call to the configured model, so the MSP
// learns whether the key, model and address work before Jarvis relies on them.
import { fallbackReasonOf } from './llm-engine';
import { createLlmTransport, type TLlmConnection, type TLlmTransport } from './llm-transport';

export const TEST_SYSTEM_PROMPT = 'You check that a connection works. Reply with the single word OK.';

export interface TLlmConnectionTestResult {
  ok: boolean;
  /** Plain words for the settings screen; never the key. */
  message: string;
  latencyMs: number;
}

/** Asks the model for one word within the connection's timeout; any answer at all proves the connection. */
export async function testLlmConnection(connection: TLlmConnection, transport: TLlmTransport = createLlmTransport({ ...connection, maxTokens: 16 })): Promise<TLlmConnectionTestResult> {
  const started = performance.now();
  const signal = AbortSignal.timeout(connection.timeoutMs);
  let reply = '';
  try {
    for await (const delta of transport.stream({ system: TEST_SYSTEM_PROMPT, messages: [{ role: 'user', content: 'Connection test' }], signal })) {
      reply += delta;
      if (reply.length > 200) break;
    }
  } catch (error) {
    const latencyMs = Math.round(performance.now() - started);
    return { ok: false, message: fallbackReasonOf(signal.aborted ? new DOMException('timed out', 'TimeoutError') : error, connection.timeoutMs, signal.aborted), latencyMs };
  }
  const latencyMs = Math.round(performance.now() - started);
  if (reply.trim() === '') return { ok: false, message: 'The language model answered, but with an empty reply.', latencyMs };
  return { ok: true, message: `${connection.model} answered in ${latencyMs} ms.`, latencyMs };
}
