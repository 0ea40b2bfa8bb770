// Browser: the API docs page (markup: site/src/site/docs-page.ts). The reference is plain HTML, readable at first
// paint; swagger-ui renders /api/v1/openapi.json interactively once asked for (its 1.7 MB bundle loads then). The
// examples show this deployment's own host in place of YOUR-DEPLOYMENT, so they can be pasted as they are.
import { config } from './site.js';

const cfg = config();

for (const code of document.querySelectorAll('code.example'))
  code.textContent = code.textContent.replaceAll('https://YOUR-DEPLOYMENT', location.origin);

/** swagger-ui's stylesheet and script, added to the page; resolves once the script has run. */
function loadSwagger() {
  const [css, js] = cfg.swagger;
  const link = Object.assign(document.createElement('link'), { rel: 'stylesheet', href: css });
  document.head.append(link);
  return new Promise((resolve, reject) => {
    const script = Object.assign(document.createElement('script'), { src: js, onload: resolve, onerror: reject });
    document.head.append(script);
  });
}

function render(box) {
  window.SwaggerUIBundle({
    url: cfg.openapi,
    dom_id: '#swagger-ui',
    deepLinking: false, // its links sit inside each operation's button: nested controls (axe: nested-interactive)
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    tryItOutEnabled: false,
    onComplete: () => {
      box.querySelector('select#servers')?.setAttribute('aria-label', 'Server');
      box.dataset.ready = 'true';
    },
  });
}

async function openViewer(button) {
  const box = document.getElementById('swagger-ui');
  button.disabled = true;
  box.hidden = false;
  box.textContent = 'Loading the interactive viewer…';
  await loadSwagger().catch(() => {});
  if (!window.SwaggerUIBundle) {
    box.textContent = `The interactive viewer did not load; the reference below and the OpenAPI document at ${cfg.openapi} say the same.`;
    return;
  }
  box.textContent = '';
  render(box);
}

const button = document.getElementById('swagger-open');
button.addEventListener('click', () => openViewer(button));
document.body.dataset.ready = 'true'; // the reference is in the page itself
