// SmartC normalize: the raw's shape says which API answered (WidgetAPI `{result}`, ServiceAPI `{events, …}`).
import type { SourceDef } from '../source-def.ts';
import type { Snapshot } from '../snapshot.ts';
import { SourceError } from '../../errors.ts';
import { normalizeWidget } from './widget.ts';
import { normalizeService } from './service.ts';

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  if (raw && typeof raw === 'object' && 'result' in raw) return normalizeWidget(raw, source);
  if (raw && typeof raw === 'object' && 'events' in raw) return normalizeService(raw, source);
  throw new SourceError(
    'schema',
    'SmartC raw is neither a WidgetAPI answer ({result: {Data}}) nor ServiceAPI answers ({events, counties, accounts}); check the registry url',
  );
}
