// The fault soak's webhook receivers (issue 37 part 6, slow receivers): an account whose alert rule on the storm's
// first state sends to SLOW_URLS never-answering URLs, beside a neighbour's rule on the same state with one healthy
// receiver. Each cycle's events become deliveries and are sent behind the cycle as the poll loop sends them
// (AccountsRuntime.afterCycle without waiting), with the production time-out and limits. The check: every delivery
// of the neighbour arrived, none later than one time-out after its cycle ended; the figures say what the slow
// receivers cost (requests held, pauses, the backlog kept).
import http from 'node:http';
import type net from 'node:net';
import { AccountsRuntime, newestEventId } from '../pipeline/src/accounts/runtime.ts';
import { logMailer } from '../pipeline/src/accounts/mailer.ts';
import { DELIVERY_TIMEOUT_MS } from '../pipeline/src/accounts/delivery-policy.ts';
import type { Clock } from '../pipeline/src/clock.ts';
import type { Db } from '../pipeline/src/state/db.ts';
import type { Check } from './soak-checks.ts';

/** As many as an account may have beside one other target (20 targets an account). */
export const SLOW_URLS = 19;

interface Receiver {
  url: string;
  /** arrival (wall ms) of each request, with its Service-Event-Id */
  hits: Array<{ at: number; event: string }>;
  close: () => Promise<void>;
}

/** A loopback receiver that answers 204 at once, or (`never`) holds every request until it is closed. */
async function listen(never: boolean): Promise<Receiver> {
  const hits: Receiver['hits'] = [];
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    hits.push({ at: Date.now(), event: String(req.headers['service-event-id']) });
    req.resume();
    if (!never) req.on('end', () => res.writeHead(204).end());
  });
  server.on('connection', (s) => sockets.add(s.on('close', () => sockets.delete(s))));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const close = () =>
    new Promise<void>((r) => {
      for (const s of sockets) s.destroy();
      server.close(() => r());
    });
  return { url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/hook`, hits, close };
}

export class SoakReceivers {
  /** when each cycle's deliveries were handed over (wall ms), by the newest event id they cover */
  private readonly handed: Array<{ upTo: number; at: number }> = [];
  private closed: Promise<void> | null = null;

  private constructor(
    private readonly rt: AccountsRuntime,
    private readonly slow: Receiver,
    private readonly fine: Receiver,
  ) {}

  /**
   * The accounts — the embedded account database under `stateDir`, as `npm start` keeps it — their rules on `state`,
   * and the receivers; attached to `db`.
   */
  static async start(o: {
    clock: Clock;
    stateDir: string;
    outDir: string;
    state: string;
    db: Db;
  }): Promise<SoakReceivers> {
    const [slow, fine] = [await listen(true), await listen(false)];
    const rt = await AccountsRuntime.open({
      stateDir: o.stateDir,
      outDir: o.outDir,
      baseUrl: 'https://outage.test',
      clock: o.clock,
      log: () => {},
      mailer: logMailer(() => {}),
      safety: { allowLoopback: true },
    });
    const at = o.clock();
    const scope = { kind: 'state', state: o.state };
    // both accounts alert on the state's larger outages (the neighbour's share within the 30 a minute one target gets:
    // the soak's minutes pass between cycles, a few wall seconds apart)
    const alerting = { kinds: ['outage_began', 'outage_grew', 'outage_restored', 'major_event'], min_customers: 2000 };
    for (const [id, urls] of [
      ['acct_slow', Array.from({ length: SLOW_URLS }, (_, i) => `${slow.url}/${i + 1}`)],
      ['acct_fine', [fine.url]],
    ] as const) {
      await rt.sql.query('INSERT INTO accounts (id, email, created_at, verified_at) VALUES ($1, $2, $3, $3)', [
        id,
        `${id}@example.org`,
        at,
      ]);
      const account = { id, email: `${id}@example.org`, created_at: at.toISOString(), verified_at: at.toISOString() };
      for (let i = 0; i < urls.length; i += 10)
        await rt.service.createRule(account, {
          name: `${id} ${i}`,
          scope,
          ...alerting,
          channels: urls.slice(i, i + 10).map((url) => ({ type: 'webhook', url })),
        });
    }
    await rt.attach(await newestEventId(o.db));
    return new SoakReceivers(rt, slow, fine);
  }

  /** After a cycle: its events to deliveries, sent on their own (the loop does not wait). */
  async afterCycle(db: Db): Promise<void> {
    const at = Date.now();
    await this.rt.afterCycle(db, { wait: false });
    this.handed.push({ upTo: (await this.rt.engine.cursor()) ?? 0, at });
  }

  /**
   * Waits for the sending in progress, then judges and closes. Judged: the first delivery after each cycle, which waits
   * for nothing of its own target (in flight, or past its 30 a minute) — so only another target could hold it; the
   * rest of a cycle's burst waits its turn at its own target, as documented, and is reported beside it.
   */
  async finish(): Promise<{ check: Check; figures: Record<string, string> }> {
    const held = this.slow.hits.length;
    // the run is over: the held requests fail now and the rest are refused at once until each slow target is paused,
    // so the sending still due (the healthy receiver's last deliveries) ends without waiting out more time-outs
    await this.slow.close();
    await this.rt.send();
    const statuses = await this.statuses();
    const [{ pauses }] = await this.rt.sql.query<{ pauses: number }>(
      `SELECT count(*)::int AS pauses FROM notices WHERE kind = 'target_paused'`,
    );
    const cycles = this.delaysByCycle();
    const all = cycles.flat().sort((a, b) => a - b);
    const firsts = cycles.map((d) => Math.min(...d)).sort((a, b) => a - b);
    const expected = Object.values(statuses.acct_fine ?? {}).reduce((a, b) => a + b, 0);
    await this.close();
    const s = (ms: number | undefined) => `${((ms ?? Number.NaN) / 1000).toFixed(2)} s`;
    const spread = (xs: number[]) => `${s(xs[Math.floor(xs.length / 2)])} / ${s(xs.at(-1))}`;
    const by = (a: string) =>
      Object.entries(statuses[a] ?? {})
        .map(([k, n]) => `${k} ${n}`)
        .join(', ') || 'none';
    return {
      check: {
        id: 'slow_receivers',
        check: `a healthy receiver beside ${SLOW_URLS} never-answering ones of another account: every delivery arrives, each cycle's first within one time-out (${DELIVERY_TIMEOUT_MS / 1000} s)`,
        value: `${all.length} of ${expected} arrived; first of each of ${firsts.length} cycles: longest ${s(firsts.at(-1))}`,
        ok: expected > 0 && all.length === expected && (firsts.at(-1) ?? Number.NaN) < DELIVERY_TIMEOUT_MS,
      },
      figures: {
        'healthy receiver, after its cycle: the first delivery (median / longest)': spread(firsts),
        [`healthy receiver: all ${all.length} deliveries (at most ${Math.max(0, ...cycles.map((d) => d.length))} from one cycle, 2 in flight and 30 a minute to one target) (median / longest)`]:
          spread(all),
        [`${SLOW_URLS} never-answering receivers: requests held to the time-out, targets paused (notices)`]: `${held}, ${pauses}`,
        'deliveries at the end (healthy; slow)': `${by('acct_fine')}; ${by('acct_slow')}`,
      },
    };
  }

  /** Each account's deliveries by status. */
  private async statuses(): Promise<Record<string, Record<string, number>>> {
    const rows = await this.rt.sql.query<{ account_id: string; status: string; n: number }>(
      `SELECT r.account_id, d.status, count(*)::int AS n FROM deliveries d JOIN channels c ON c.id = d.channel_id
        JOIN rules r ON r.id = c.rule_id GROUP BY 1, 2 ORDER BY 1, 2`,
    );
    const out: Record<string, Record<string, number>> = {};
    for (const r of rows) (out[r.account_id] ??= {})[r.status] = r.n;
    return out;
  }

  /** The healthy receiver's delays after the cycle that enqueued each delivery (wall ms), per cycle. */
  private delaysByCycle(): number[][] {
    const byCycle = new Map<number, number[]>();
    for (const h of this.fine.hits) {
      const event = Number(/^evt_(\d+)$/.exec(h.event)?.[1]);
      const i = this.handed.findIndex((c) => c.upTo >= event);
      const delay = h.at - (this.handed[i]?.at ?? Number.NaN);
      byCycle.set(i, [...(byCycle.get(i) ?? []), delay]);
    }
    return [...byCycle.values()];
  }

  /** Stops the receivers and the runtime (once; the held requests end as failures, recorded before it closes). */
  close(): Promise<void> {
    this.closed ??= (async () => {
      await this.slow.close();
      await this.rt.close();
      await this.fine.close();
    })();
    return this.closed;
  }
}
