// Browser: the API docs page (markup: site/src/site/docs-page.ts). swagger-ui renders /api/v1/openapi.json; the
// examples show this deployment's own host in place of YOUR-DEPLOYMENT, so they can be pasted as they are.
import { config } from './site.js';

const cfg = config();

for (const code of document.querySelectorAll('code.example'))
  code.textContent = code.textContent.replaceAll('https://YOUR-DEPLOYMENT', location.origin);

function render() {
  const box = document.getElementById('swagger-ui');
  if (!window.SwaggerUIBundle) {
    box.textContent = `The API reference viewer did not load; read the OpenAPI document at ${cfg.openapi}.`;
    return;
  }
  window.SwaggerUIBundle({
    url: cfg.openapi,
    dom_id: '#swagger-ui',
    deepLinking: false, // its links sit inside each operation's button: nested controls (axe: nested-interactive)
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    tryItOutEnabled: false,
    onComplete: () => {
      document.querySelector('#swagger-ui select#servers')?.setAttribute('aria-label', 'Server');
      document.body.dataset.ready = 'true';
    },
  });
}

// swagger-ui-bundle.js is a deferred classic script: it has run before this module (modules are deferred too, and
// run in document order); the check covers a blocked or failed load.
render();
