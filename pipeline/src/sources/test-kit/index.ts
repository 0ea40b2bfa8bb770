// The connector test kit every connector's fetch.test.ts uses: a loopback upstream serving recorded answers by route,
// the registry row pointed at it, a poll through the connector's fetch and normalize, and the snapshot assertions.
export { connectorKit, type ConnectorKit, type KitRow, type Target } from './connector-kit.ts';
export { expectRefusedUnsent, expectWellFormed } from './expect-snapshot.ts';
export { recordedJson, recordedText } from './recorded.ts';
export type { Answer, Route, UpstreamRequest } from './upstream.ts';
