// OutageEntry fetch: one form POST to ajaxShellOut.php asking for the client's device markers.
import type { FetchContext } from '../connector.ts';
import { SourceError } from '../../errors.ts';

/** The form body the OutageEntry map sends for its outage markers (options.client, options.service_index). */
export function markersForm(options: Record<string, unknown>): string {
  const client = options.client;
  if (typeof client !== 'string' || !client.trim()) {
    throw new SourceError(
      'config',
      'OutageEntry needs options.client, the tenant slug from the map URL (outage.php?Client=…), e.g. {"client":"GREYS"}',
    );
  }
  const index = options.service_index ?? 1;
  if (!Number.isInteger(index) || (index as number) < 0) {
    throw new SourceError(
      'config',
      `options.service_index must be a whole number (usually 1), got ${JSON.stringify(index)}`,
    );
  }
  return new URLSearchParams({
    action: 'get',
    client: client.trim(),
    target: 'cfa_device_markers',
    serviceIndex: String(index),
  }).toString();
}

export async function fetch(ctx: FetchContext): Promise<unknown> {
  return ctx.http.getJson(ctx.source.url, ctx.priority, {
    method: 'POST',
    body: markersForm(ctx.source.options),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    idempotent: true, // the map's read of its markers: safe to retry
  });
}
