// SIMULATED federal spreadsheets in their real layouts, for `npm start` and the benchmark: OE-417 Annual_Summary
// workbooks (.xls, BIFF8: title row, header, Month column, text dates, day-fraction times, "Unknown" values) and the
// three EIA-861 workbooks (.xlsx: grouping row above the header, "." for blanks). They go through the real importers.
// File names start with SIMULATED_ and every utility name says "Simulated", so nothing can pass for real data.
import fs from 'node:fs';
import path from 'node:path';
import * as XLSX from '@e965/xlsx';
import { loadAtlas } from '../geo/counties.ts';
import { STATES } from '../geo/states.ts';
import { MONTHS } from '../history/spreadsheet.ts';
import { unit } from './random.ts';
import { writeFileAtomic } from '../publish/atomic-write.ts';

const NERC: Record<string, string> = {
  TX: 'TRE',
  FL: 'FRCC',
  CA: 'WECC',
  WA: 'WECC',
  OR: 'WECC',
  NY: 'NPCC',
  MA: 'NPCC',
};
const EVENT_TYPES: Array<[string, string]> = [
  ['Severe Weather', 'Loss of electric service to more than 50,000 customers for 1 hour or more.'],
  [
    'Vandalism',
    'Damage or destruction of its Facility that results from actual or suspected intentional human action.',
  ],
  [
    'Transmission Interruption',
    'Unexpected Transmission loss within its area, contrary to design, of three or more Bulk Electric System Facilities caused by a common disturbance (excluding successful automatic reclosing).',
  ],
  ['Fuel Supply Emergency', 'Fuel supply emergencies that could impact electric power system adequacy or reliability.'],
  [
    'Severe Weather - Winter',
    'Public appeal to reduce the use of electricity for purposes of maintaining the continuity of the Bulk Electric System.',
  ],
  ['Cyber Event', 'Cyber event that could potentially impact electric power system adequacy or reliability.'],
];

function writeAtomic(file: string, wb: XLSX.WorkBook, bookType: XLSX.BookType): void {
  writeFileAtomic(file, XLSX.write(wb, { type: 'buffer', bookType }) as Buffer);
}

const mdY = (d: Date) =>
  `${String(d.getUTCMonth() + 1).padStart(2, '0')}/${String(d.getUTCDate()).padStart(2, '0')}/${d.getUTCFullYear()}`;
const dayFraction = (d: Date) => (d.getUTCHours() * 60 + d.getUTCMinutes()) / 1440;

/** One SIMULATED_<year>_Annual_Summary.xls per year, 40–80 events each. */
export function writeSimulatedOe417(dir: string, seed: number, firstYear: number, lastYear: number): string[] {
  fs.mkdirSync(dir, { recursive: true });
  const counties = loadAtlas().counties.filter((c) => STATES.find((s) => s.code === c.state && Number(s.fips) < 60));
  const files: string[] = [];
  for (let year = firstYear; year <= lastYear; year++) {
    const file = path.join(dir, `SIMULATED_${year}_Annual_Summary.xls`);
    files.push(file);
    if (fs.existsSync(file)) continue;
    const n = 40 + Math.floor(unit(seed, 'oe417', year) * 40);
    const rows: Array<Array<string | number>> = [];
    for (let i = 0; i < n; i++) {
      const c = counties[Math.floor(unit(seed, 'oe417c', year, i) * counties.length)];
      const state = STATES.find((s) => s.code === c.state)!;
      const began = new Date(Date.UTC(year, 0, 1) + Math.floor(unit(seed, 'oe417t', year, i) * 365 * 96) * 900_000);
      if (began.getUTCFullYear() !== year) continue;
      const hours = Math.round(1 + unit(seed, 'oe417d', year, i) ** 2 * 120);
      const restored = new Date(began.getTime() + hours * 3_600_000);
      const [type, alert] = EVENT_TYPES[Math.floor(unit(seed, 'oe417k', year, i) * EVENT_TYPES.length)];
      const weather = type.startsWith('Severe');
      const customers = weather ? Math.round(50_000 + unit(seed, 'oe417n', year, i) ** 3 * 900_000) : 0;
      const unknown = unit(seed, 'oe417u', year, i) < 0.15;
      const ongoing = unit(seed, 'oe417o', year, i) < 0.05;
      rows.push([
        MONTHS[began.getUTCMonth()].replace(/^./, (x) => x.toUpperCase()),
        mdY(began),
        dayFraction(began),
        ongoing ? 'Ongoing' : mdY(restored),
        ongoing ? 'Ongoing' : dayFraction(restored),
        `${state.name}: ${c.name} County;`,
        NERC[c.state] ?? 'SERC',
        alert,
        type,
        unknown ? 'Unknown' : String(Math.round(customers / 600)),
        unknown ? 'Unknown' : String(customers),
      ]);
    }
    rows.sort(
      (a, b) =>
        String(a[1])
          .slice(6)
          .concat(String(a[1]))
          .localeCompare(String(b[1]).slice(6).concat(String(b[1]))) || (a[2] as number) - (b[2] as number),
    );
    const sheet = XLSX.utils.aoa_to_sheet([
      [`SIMULATED OE-417 Electric Emergency and Disturbance Report - Calendar Year ${year} (not real events)`],
      [
        'Month',
        'Date Event Began',
        'Time Event Began',
        'Date of Restoration',
        'Time of Restoration',
        'Area Affected',
        'NERC Region',
        'Alert Criteria',
        'Event Type',
        'Demand Loss (MW)',
        'Number of Customers Affected',
      ],
      ...rows,
    ]);
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, sheet, 'Sheet1');
    writeAtomic(file, wb, 'biff8');
  }
  return files;
}

interface SimUtility {
  number: number;
  name: string;
  state: string;
  ownership: string;
  fips: string[];
  customers: number;
}

/** Simulated utilities: one investor-owned utility per state and a cooperative for every run of eight counties. */
function simulatedUtilities(model: Map<string, number>): SimUtility[] {
  const out: SimUtility[] = [];
  const byState = new Map<string, string[]>();
  for (const c of loadAtlas().counties) (byState.get(c.state) ?? byState.set(c.state, []).get(c.state)!).push(c.fips);
  let number = 90_000;
  for (const [state, fips] of [...byState].sort(([a], [b]) => a.localeCompare(b))) {
    const total = fips.reduce((s, f) => s + (model.get(f) ?? 1000), 0);
    out.push({
      number: number++,
      name: `Simulated Power Co of ${state}`,
      state,
      ownership: 'Investor Owned',
      fips,
      customers: Math.round(total * 0.8),
    });
    for (let i = 0; i < fips.length; i += 8) {
      const group = fips.slice(i, i + 8);
      out.push({
        number: number++,
        name: `Simulated Rural Electric Coop ${state}-${i / 8 + 1}`,
        state,
        ownership: 'Cooperative',
        fips: group,
        customers: Math.round(group.reduce((s, f) => s + (model.get(f) ?? 1000), 0) * 0.2),
      });
    }
  }
  return out;
}

/** SIMULATED_Service_Territory_<year>.xlsx, SIMULATED_Reliability_<year>.xlsx, SIMULATED_Sales_Ult_Cust_<year>.xlsx. */
export function writeSimulatedEia861(dir: string, seed: number, year: number, model: Map<string, number>): string[] {
  fs.mkdirSync(dir, { recursive: true });
  const atlas = loadAtlas();
  const utilities = simulatedUtilities(model);
  const files = ['Service_Territory', 'Reliability', 'Sales_Ult_Cust'].map((k) =>
    path.join(dir, `SIMULATED_${k}_${year}.xlsx`),
  );
  const [territory, reliability, sales] = files;
  const book = (sheets: Array<[string, unknown[][]]>) => {
    const wb = XLSX.utils.book_new();
    for (const [name, aoa] of sheets) XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(aoa), name);
    return wb;
  };
  if (!fs.existsSync(territory)) {
    writeAtomic(
      territory,
      book([
        [
          'Counties_States',
          [
            ['Data Year', 'Utility Number', 'Utility Name', 'State', 'County'],
            ...utilities.flatMap((u) =>
              u.fips.map((f) => [year, u.number, u.name, u.state, atlas.byFips.get(f)!.name]),
            ),
          ],
        ],
      ]),
      'xlsx',
    );
  }
  if (!fs.existsSync(reliability)) {
    const metric = (u: SimUtility, k: string, scale: number) =>
      Math.round(unit(seed, 'eia', u.number, k) * scale * 100) / 100;
    writeAtomic(
      reliability,
      book([
        [
          'Reliability_States',
          [
            [
              'Utility Characteristics',
              null,
              null,
              null,
              null,
              'IEEE Standard',
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              'Other Standard',
            ],
            [
              'Data Year',
              'Utility Number',
              'Utility Name',
              'State',
              'Ownership',
              'SAIDI With MED',
              'SAIFI With MED',
              'CAIDI With MED',
              'SAIDI Without MED',
              'SAIFI Without MED',
              'CAIDI Without MED',
              'SAIDI With MED Minus LOS',
              'SAIFI With MED Minus LOS',
              'CAIDI Minus MED',
              'Number of Customers',
              'Highest Dist. Voltage',
              'Outages Recorded Automatically',
              'SAIDI With MED',
              'SAIFI With MED',
              'CAIDI With MED',
              'SAIDI Without MED',
              'SAIFI Without MED',
              'CAIDI Without MED',
              'Number of Customers',
            ],
            ...utilities.map((u) => {
              const saidi = 60 + metric(u, 'saidi', 600);
              const saifi = 0.5 + metric(u, 'saifi', 2);
              const ieee = [
                saidi,
                saifi,
                Math.round((saidi / saifi) * 100) / 100,
                Math.round(saidi * 0.6 * 100) / 100,
                Math.round(saifi * 0.8 * 1000) / 1000,
                Math.round(((saidi * 0.6) / (saifi * 0.8)) * 100) / 100,
                '.',
                '.',
                '.',
                u.customers,
                12.5,
                'Y',
              ];
              const dots = ['.', '.', '.', '.', '.', '.', '.'];
              return [
                year,
                u.number,
                u.name,
                u.state,
                u.ownership,
                ...(u.ownership === 'Cooperative' && u.number % 3 === 0
                  ? ['.', '.', '.', '.', '.', '.', '.', '.', '.', '.', '.', '']
                  : ieee),
                ...(u.ownership === 'Cooperative' && u.number % 3 === 0
                  ? [saidi, saifi, Math.round((saidi / saifi) * 100) / 100, '.', '.', '.', u.customers]
                  : dots),
              ];
            }),
          ],
        ],
      ]),
      'xlsx',
    );
  }
  if (!fs.existsSync(sales)) {
    const groups = ['RESIDENTIAL', 'COMMERCIAL', 'INDUSTRIAL', 'TRANSPORTATION', 'TOTAL'];
    writeAtomic(
      sales,
      book([
        [
          'States',
          [
            [
              'Utility Characteristics',
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              ...groups.flatMap((g) => [g, null, null]),
            ],
            [
              '',
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              ...groups.flatMap(() => ['Revenues', 'Sales', 'Customers']),
            ],
            [
              'Data Year',
              'Utility Number',
              'Utility Name',
              'Part',
              'Service Type',
              'Data Type\nO = Observed\nI = Imputed',
              'State',
              'Ownership',
              'BA Code',
              ...groups.flatMap(() => ['Thousand Dollars', 'Megawatthours', 'Count']),
            ],
            ...utilities.map((u) => {
              const res = Math.round(u.customers * 0.87);
              const com = Math.round(u.customers * 0.12);
              const ind = u.customers - res - com;
              const cells = [
                [res, 0.12],
                [com, 0.1],
                [ind, 0.07],
                [0, 0],
              ].flatMap(([n, price]) => [Math.round(n * 11 * price * 10) / 10, Math.round(n * 11), n]);
              return [
                year,
                u.number,
                u.name,
                'A',
                'Bundled',
                'O',
                u.state,
                u.ownership,
                'SIM',
                ...cells,
                Math.round(u.customers * 1.2),
                u.customers * 11,
                u.customers,
              ];
            }),
          ],
        ],
      ]),
      'xlsx',
    );
  }
  return files;
}
