// Test support for the account suites: the account database (PGlite in memory, or the real PostgreSQL server named
// by OUTAGE_TEST_PG_URL — a fresh schema per suite), a real SMTP server on loopback that keeps what it receives, and
// a webhook receiver on loopback.
import http from 'node:http';
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';
import { openPglite, openPostgres, migrate, type Sql } from '../src/accounts/sql.ts';
import type { PublicEvent } from '../src/contract/events.ts';

export const PG_URL = process.env.OUTAGE_TEST_PG_URL;

export async function testDb(): Promise<{ sql: Sql; drop: () => Promise<void> }> {
  if (!PG_URL) {
    const sql = await openPglite();
    await migrate(sql);
    return { sql, drop: () => sql.close() };
  }
  const schema = `t_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = await openPostgres(PG_URL);
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.close();
  const url = new URL(PG_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const sql = await openPostgres(url.toString());
  await migrate(sql);
  return {
    sql,
    drop: async () => {
      await sql.close();
      const a = await openPostgres(PG_URL);
      await a.query(`DROP SCHEMA ${schema} CASCADE`);
      await a.close();
    },
  };
}

export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
}

export async function smtpSink(): Promise<{ url: string; mails: ReceivedMail[]; close: () => Promise<void> }> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, cb) {
      simpleParser(stream).then((m) => {
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address).join(','),
          subject: m.subject ?? '',
          text: m.text ?? '',
        });
        cb();
      }, cb);
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.server.address() as { port: number }).port;
  return { url: `smtp://127.0.0.1:${port}`, mails, close: () => new Promise<void>((r) => server.close(() => r())) };
}

export interface Hit {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

/** What a receiver answers: `never` holds the request unanswered until the receiver is closed. */
export interface Answer {
  status: number;
  delayMs?: number;
  headers?: Record<string, string>;
  never?: boolean;
}

/** A webhook receiver: `behave` decides each answer (status, delay ms, or never); every request is kept. */
export async function receiver(behave: (hit: Hit, n: number) => Answer = () => ({ status: 200 })) {
  const hits: Hit[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const hit = { path: req.url ?? '', headers: req.headers, body, at: Date.now() };
      hits.push(hit);
      const b = behave(hit, hits.length);
      if (b.never) return;
      setTimeout(() => {
        if (!res.destroyed) res.writeHead(b.status, b.headers).end('ok');
      }, b.delayMs ?? 0);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    hits,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** A county event as the stream publishes one (Miami-Dade, 5,000 out), numbered `id` at `at`; `over` changes fields. */
export function countyEvent(id: number, at: string, over: Partial<PublicEvent> = {}): PublicEvent {
  return {
    id,
    at,
    kind: 'outage_began',
    scope: 'county',
    fips: '12086',
    state: 'FL',
    states: ['FL'],
    utility: null,
    area: null,
    source_id: null,
    outage_id: `county|12086|${id}`,
    customers_out: 5_000,
    pct_out: 0.4,
    threshold: 500,
    previous_customers_out: null,
    etr: null,
    previous_etr: null,
    county_name: 'Miami-Dade',
    title: 'Outage began: Miami-Dade, FL — 5,000 customers out',
    link: '/api/v1/live/counties/12086',
    ...over,
  };
}
