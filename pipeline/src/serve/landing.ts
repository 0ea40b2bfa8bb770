// The local server's landing page: what the service is, whether the data is simulated, and where the endpoints are.
import { CATALOGUE } from '../contract/catalogue.ts';
import { CITATION } from '../contract/notice.ts';
import { exampleUrl } from '../contract/urls.ts';

const esc = (s: string) => s.replace(/[&<>"]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[ch]!);

export function landingPage(simulated: boolean, notice: string): string {
  const banner = simulated
    ? '<p style="background:#fde68a;padding:.75em;border-radius:6px"><strong>SIMULATED DATA.</strong> This server shows the built-in storm simulator, not real outages.</p>'
    : '';
  const links = CATALOGUE.map((e) => {
    const href = exampleUrl(e);
    return `<li><a href="${esc(href)}"><code>${esc(e.path)}</code></a> — ${esc(e.summary)}</li>`;
  }).join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>US Power Outage Data</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family:system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem">
<h1>US Power Outage Data</h1>${banner}
<p>Free, keyless JSON API for United States electric power outages. ${esc(notice)}</p>
<h2>Endpoints</h2><ul>${links}</ul>
<p>${esc(CITATION)}</p></body></html>`;
}
