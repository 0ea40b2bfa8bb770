// The API docs page /docs/: every operation of the OpenAPI document as plain HTML (docs-reference.ts, no hand-written
// endpoint list), swagger-ui-dist's interactive viewer on request, short examples in curl, JavaScript, Python and R,
// the chart embed guide, and the list of the project's documentation pages (docs-list.ts). swagger-ui's files are
// served as shipped.
import { CATALOGUE } from '../../../pipeline/src/contract/catalogue.ts';
import { CITATION } from '../../../pipeline/src/contract/notice.ts';
import { exampleUrl } from '../../../pipeline/src/contract/urls.ts';
import { referenceHtml, REFERENCE_CSS } from './docs-reference.ts';
import { esc, layout } from './layout.ts';
import { apiPath } from './routes.ts';
import { SITE_PATHS, sitePath } from '../../../pipeline/src/contract/site-pages.ts';
import { DOCS, docsUrl } from './docs-list.ts';

/** swagger-ui-dist's files the page loads when the viewer is asked for, served under SWAGGER_BASE by both hosts. */
export const SWAGGER_BASE = '/docs/swagger';
export const SWAGGER_ASSETS = ['swagger-ui.css', 'swagger-ui-bundle.js'] as const;

const county = CATALOGUE.find((e) => e.id === 'live.county')!;
const live = exampleUrl(county);

/** The examples read one county's live status; the browser puts its own host in place of YOUR-DEPLOYMENT. */
const EXAMPLES: Array<[string, string]> = [
  [
    'curl',
    `curl -s "https://YOUR-DEPLOYMENT${live}" | jq '.data.customers_out'\ncurl -s "https://YOUR-DEPLOYMENT${live}?format=csv"`,
  ],
  [
    'JavaScript',
    `const res = await fetch("https://YOUR-DEPLOYMENT${live}");\nconst { data } = await res.json();\nconsole.log(data.name, data.customers_out, data.pct_out);`,
  ],
  [
    'Python',
    `import requests\n\ndata = requests.get("https://YOUR-DEPLOYMENT${live}", timeout=10).json()["data"]\nprint(data["name"], data["customers_out"], data["pct_out"])`,
  ],
  [
    'R',
    `library(jsonlite)\n\ndata <- fromJSON("https://YOUR-DEPLOYMENT${live}")$data\ncat(data$name, data$customers_out, data$pct_out, "\\n")\nmap <- read.csv("https://YOUR-DEPLOYMENT${live}?format=csv")`,
  ],
];

// swagger-ui's own colours, where they fall below the AA contrast ratio, darkened.
const CSS = `.examples{display:grid;gap:.6em}.examples h3{margin:.4em 0 0;font-size:1rem}
#swagger-ui .info .title small.version-stamp{background-color:#2f5a00}#swagger-ui .info .title small{background-color:#4a4a4a}
#swagger-ui .info a,#swagger-ui .info .url,#swagger-ui .info .link{color:#0b4f9c}
#swagger-ui .btn.authorize{color:#1b6b3a;border-color:#1b6b3a}#swagger-ui .btn.authorize svg{fill:#1b6b3a}#swagger-ui .btn>span{color:inherit}
#swagger-ui .opblock .opblock-summary-method{background:#1a1a1a;color:#fff}
#swagger-ui .info .title small pre{background:none}#swagger-ui .opblock-summary-description{color:#1a1a1a}
#swagger-ui .opblock .opblock-summary-path{color:#1a1a1a}
#swagger-ui .opblock-tag small{color:#1a1a1a}#swagger-ui .opblock.opblock-get .opblock-summary-method{background:#0b4f9c;color:#fff}
#swagger-ui .opblock.opblock-post .opblock-summary-method{background:#1b6b3a;color:#fff}#swagger-ui .opblock.opblock-delete .opblock-summary-method{background:#a00;color:#fff}
#swagger-ui .opblock.opblock-patch .opblock-summary-method{background:#6b4a00;color:#fff}#swagger-ui .opblock.opblock-deprecated .opblock-summary-method{background:#555;color:#fff}
${REFERENCE_CSS}`;

/** A line of the docs list: plain text with `code` spans, as the Markdown pages write it. */
const inline = (text: string) => esc(text).replace(/`([^`]+)`/g, '<code>$1</code>');

/** The project's documentation pages (docs/*.md on the repository), the same list as the README's. */
const guides = () =>
  `<section aria-labelledby="guides-title"><h2 id="guides-title">Documentation</h2>
<p>How the service works and how to run it, one page per topic, in the repository's <code>docs/</code> folder:</p>
<ul class="guides">${DOCS.map((d) => `<li><a href="${docsUrl(d.file)}">${esc(d.title)}</a>: ${inline(d.about.replace(/^./, (c) => c.toLowerCase()))}</li>`).join('')}</ul></section>`;

export function docsPage(): string {
  const snippet = CATALOGUE.filter((e) => e.formats.includes('png'))
    .map(
      (e) =>
        `<img src="https://YOUR-DEPLOYMENT${exampleUrl(e)}" width="600" height="315" alt="${e.summary} (US Power Outage Data)">`,
    )
    .join('\n');
  const iframe = `<iframe src="https://YOUR-DEPLOYMENT${SITE_PATHS.embedMap}?state=fl" width="800" height="560" title="Live power outages in Florida" style="border:0"></iframe>`;
  const config = {
    openapi: apiPath('openapi'),
    paths: CATALOGUE.map((e) => e.path),
    swagger: SWAGGER_ASSETS.map((a) => `${SWAGGER_BASE}/${a}`),
  };
  const main = `<h1>API documentation</h1>
<p>Free and keyless. Every JSON response is <code>{ "data": … }</code>; errors carry <code>data.error</code> with a message that says what to do. The whole API is described by the <a href="${config.openapi}">OpenAPI 3.1 document</a>, listed below.</p>
${guides()}
<section aria-labelledby="examples-title"><h2 id="examples-title">Examples</h2><p>One county's live status (<code>${esc(county.path)}</code>):</p><div class="examples">
${EXAMPLES.map(([lang, code]) => `<div><h3>${lang}</h3><pre><code class="example" data-lang="${lang}">${esc(code)}</code></pre></div>`).join('')}</div></section>
<section aria-labelledby="charts"><h2 id="charts">Embedding charts and maps</h2>
<p>Every chart is a PNG of 1200 × 630 pixels, branded with the service name, the data source, the generation time and the citation line, and readable at half size. Hotlink it with a link back: each county page has the snippet beside each chart, ready to copy.</p>
<p>Every chart, with example parameters (a county page's snippets also link back to the page):</p><pre><code class="example">${esc(snippet)}</code></pre>
<p>The live map embeds in an <code>&lt;iframe&gt;</code>, national (<code>${SITE_PATHS.embedMap}</code>) or one state (<code>${SITE_PATHS.embedMap}?state=fl</code> or <code>${sitePath('embedState', { state: 'fl' })}</code>); it carries the citation and a link back, and refreshes itself:</p>
<pre><code class="example">${esc(iframe)}</code></pre><p>${esc(CITATION)}</p></section>
<section aria-labelledby="reference-title"><h2 id="reference-title">Reference</h2>
<p>Every operation of the <a href="${config.openapi}">OpenAPI document</a>, by the first part of its path: open one for its parameters and answers. Every <code>GET</code> also answers <code>OPTIONS</code> (the CORS preflight). <button type="button" id="swagger-open">Open the interactive viewer</button> (swagger-ui, about 400 KB)</p>
<div id="swagger-ui" data-openapi="${config.openapi}" hidden></div>
<div id="reference">${referenceHtml()}</div></section>`;
  return layout({ title: 'API documentation', current: 'docs', main, module: 'docs-page.js', config, css: CSS });
}
