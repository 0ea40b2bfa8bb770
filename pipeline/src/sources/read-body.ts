// One answer's body, read chunk by chunk against the answer's cap and the poll's budget: either stops the read at
// once, so an oversized answer is never held whole (the declared Content-Length is refused before reading).
import type { Dispatcher } from 'undici';
import { SourceError } from '../errors.ts';
import type { PollBudget } from './budget.ts';

/** The answer's cap in bytes, and what raises it when it is lower than the client's (an XML feed's option). */
export interface BodyCap {
  bytes: number;
  note?: string;
}

export async function readBody(
  url: string,
  res: Dispatcher.ResponseData<unknown>,
  cap: BodyCap,
  budget: PollBudget,
  fail: (err: unknown, stage: string) => SourceError,
): Promise<{ text: string; size: number }> {
  const over = `the ${cap.bytes}-byte cap${cap.note ? ` (${cap.note})` : ''}`;
  const declared = Number(res.headers['content-length'] ?? Number.NaN);
  if (declared > cap.bytes) {
    // Destroying an unread body makes undici emit an AbortError on it: without a listener that error is uncaught.
    res.body.on('error', () => {});
    res.body.destroy();
    throw new SourceError('too_large', `${url} declares ${declared} bytes, over ${over}`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > cap.bytes) throw new SourceError('too_large', `${url} sent more than ${over}`);
      budget.read(chunk.length, url);
      chunks.push(chunk);
    }
  } catch (err) {
    res.body.destroy();
    throw fail(err, 'body');
  }
  return { text: Buffer.concat(chunks).toString('utf8'), size };
}
