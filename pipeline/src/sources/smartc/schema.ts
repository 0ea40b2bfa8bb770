// SEW SmartCMobile outage answers: the WidgetAPI (MG&E) and the ServiceAPI family (OPPD), each only as far as read.
// widget.ts and service.ts read them through parseUpstream, so each is a zod schema; but the check inside is by hand
// (in place, no copy) and throws the `schema` failure itself, naming the field: zod's objects copied every event with
// its unread keys, which cost more than JSON.parse of the answers.
import { z } from 'zod';
import {
  arrayAt,
  fail,
  isObj,
  misfit,
  nullish,
  numOrText,
  objectAt,
  optNumOrText,
  optObj,
  optText,
} from '../checks.ts';

type Count = number | string | null | undefined;
type Text = string | null | undefined;

/** WidgetAPI `PreloginGetOutageData`: outage points and the served total ("TotalCusomerServed" [sic]). */
export interface WidgetAnswer {
  result: {
    Data: {
      listOutageResultSetTwo?: Array<{
        CustomerAffected?: Count;
        City?: Text;
        Latitude?: Count;
        Longitude?: Count;
        ETR?: Text;
      }> | null;
      listTotalOutage?: Array<{ TotalCusomerServed?: Count }> | null;
    };
  };
}

/** ServiceAPI answers share one envelope: `{status: {type, code, message, error}, data}`. */
interface Envelope<T> {
  status?: { error?: boolean | null; message?: Text } | null;
  data?: T | null;
}

export interface ServiceEvent {
  incidentId: string | number;
  affectedCount?: Count;
  location?: Text;
  lat?: Count;
  lon?: Count;
  crewStatus?: Text;
  restorationTime?: Text;
  extension?: { OutageAttribute1?: Text } | null;
}

/** What fetch returns for the ServiceAPI: the events answer, and the county list and account count when asked. */
export interface ServiceRaw {
  events: Envelope<ServiceEvent[]>;
  counties?: Envelope<Array<{ location: string; affectedCount?: Count }>> | null;
  accounts?: Envelope<{ count?: Count }> | null;
}

const WIDGET = 'SmartC WidgetAPI PreloginGetOutageData answer';
const SERVICE = 'SmartC ServiceAPI answers';

function readWidget(raw: unknown): WidgetAnswer {
  const data = objectAt(WIDGET, objectAt(WIDGET, objectAt(WIDGET, raw, '').result, 'result').Data, 'result.Data');
  const list = data.listOutageResultSetTwo;
  const at = 'result.Data.listOutageResultSetTwo';
  const rows = nullish(list) ? [] : arrayAt(WIDGET, list, at);
  for (let i = 0; i < rows.length; i++) {
    const o = objectAt(WIDGET, rows[i], at, i);
    if (!optNumOrText(o.CustomerAffected))
      misfit(WIDGET, at, i, 'CustomerAffected', 'number or string', o.CustomerAffected);
    if (!optText(o.City)) misfit(WIDGET, at, i, 'City', 'string', o.City);
    if (!optNumOrText(o.Latitude)) misfit(WIDGET, at, i, 'Latitude', 'number or string', o.Latitude);
    if (!optNumOrText(o.Longitude)) misfit(WIDGET, at, i, 'Longitude', 'number or string', o.Longitude);
    if (!optText(o.ETR)) misfit(WIDGET, at, i, 'ETR', 'string', o.ETR);
  }
  const totals = nullish(data.listTotalOutage)
    ? []
    : arrayAt(WIDGET, data.listTotalOutage, 'result.Data.listTotalOutage');
  for (let i = 0; i < totals.length; i++) {
    const t = objectAt(WIDGET, totals[i], 'result.Data.listTotalOutage', i);
    if (!optNumOrText(t.TotalCusomerServed))
      misfit(WIDGET, 'result.Data.listTotalOutage', i, 'TotalCusomerServed', 'number or string', t.TotalCusomerServed);
  }
  return raw as WidgetAnswer;
}

/** The envelope at `at` (`status` and `data`), its data returned unchecked; null when the answer is absent. */
function envelopeData(v: unknown, at: string, required: boolean): unknown {
  if (!required && nullish(v)) return null;
  const e = objectAt(SERVICE, v, at);
  const status = e.status;
  if (!optObj(status)) fail(SERVICE, `${at}.status`, 'object', status);
  if (isObj(status) && !(nullish(status.error) || typeof status.error === 'boolean'))
    fail(SERVICE, `${at}.status.error`, 'boolean', status.error);
  if (isObj(status) && !optText(status.message)) fail(SERVICE, `${at}.status.message`, 'string', status.message);
  return e.data;
}

function checkEvents(data: unknown): void {
  if (nullish(data)) return;
  const at = 'events.data';
  const events = arrayAt(SERVICE, data, at);
  for (let i = 0; i < events.length; i++) {
    const e = objectAt(SERVICE, events[i], at, i);
    if (!numOrText(e.incidentId)) misfit(SERVICE, at, i, 'incidentId', 'number or string', e.incidentId);
    if (!optNumOrText(e.affectedCount)) misfit(SERVICE, at, i, 'affectedCount', 'number or string', e.affectedCount);
    if (!optText(e.location)) misfit(SERVICE, at, i, 'location', 'string', e.location);
    if (!optNumOrText(e.lat)) misfit(SERVICE, at, i, 'lat', 'number or string', e.lat);
    if (!optNumOrText(e.lon)) misfit(SERVICE, at, i, 'lon', 'number or string', e.lon);
    if (!optText(e.crewStatus)) misfit(SERVICE, at, i, 'crewStatus', 'string', e.crewStatus);
    if (!optText(e.restorationTime)) misfit(SERVICE, at, i, 'restorationTime', 'string', e.restorationTime);
    const x = e.extension;
    if (!optObj(x) || (isObj(x) && !optText(x.OutageAttribute1)))
      misfit(SERVICE, at, i, 'extension', 'an object whose OutageAttribute1 is a string', x);
  }
}

function readService(raw: unknown): ServiceRaw {
  const root = objectAt(SERVICE, raw, '');
  checkEvents(envelopeData(root.events, 'events', true));
  const counties = envelopeData(root.counties, 'counties', false);
  const rows = nullish(counties) ? [] : arrayAt(SERVICE, counties, 'counties.data');
  for (let i = 0; i < rows.length; i++) {
    const r = objectAt(SERVICE, rows[i], 'counties.data', i);
    if (typeof r.location !== 'string') misfit(SERVICE, 'counties.data', i, 'location', 'string', r.location);
    if (!optNumOrText(r.affectedCount))
      misfit(SERVICE, 'counties.data', i, 'affectedCount', 'number or string', r.affectedCount);
  }
  const accounts = envelopeData(root.accounts, 'accounts', false);
  if (!optObj(accounts)) fail(SERVICE, 'accounts.data', 'object', accounts);
  if (isObj(accounts) && !optNumOrText(accounts.count))
    fail(SERVICE, 'accounts.data.count', 'number or string', accounts.count);
  return raw as ServiceRaw;
}

/** For parseUpstream: the answer itself once the hand check passes (a misfit throws its `schema` failure). */
export const widgetSchema = z.custom<WidgetAnswer>((v) => readWidget(v) === v);
export const serviceSchema = z.custom<ServiceRaw>((v) => readService(v) === v);
