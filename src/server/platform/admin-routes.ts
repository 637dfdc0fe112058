import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ClientAssets } from '../site-page/index.js';
import { signInError } from './auth-routes.js';
import { renderLoginPage } from '../../web/ssr-admin.js';
import { escapeHtml } from '../../core/html.js';

function doc(reply: FastifyReply, assets: ClientAssets, title: string, body: string) {
  const t = assets.tags('admin');
  reply
    .header('cache-control', 'no-store')
    .header('x-robots-tag', 'noindex')
    .type('text/html; charset=utf-8')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
        `<title>${escapeHtml(title)}</title><link rel="icon" href="/theme/favicon.svg" type="image/svg+xml"><link rel="stylesheet" href="/admin.css">${t.head}</head><body>${body}${t.body}</body></html>`,
    );
  return reply;
}

const ADMIN_CSS = `body{margin:0;font:15px/1.5 system-ui,sans-serif;color:#1d1d1f;background:#f6f6f4}
.admin-login{max-width:360px;margin:12vh auto;padding:32px;background:#fff;border-radius:12px;box-shadow:0 2px 12px #0001}
.admin-login form{display:grid;gap:14px}.admin-login label{display:grid;gap:4px;font-weight:600}
.admin-login input{font:inherit;padding:10px;border:1px solid #bbb;border-radius:6px}
.admin-login button,.admin-shell button{font:inherit;padding:10px 14px;border:0;border-radius:6px;background:#1d1d1f;color:#fff;cursor:pointer}
.admin-login__error{color:#b00020;margin:0}
.admin-login h1{font-size:1.5rem;margin:0 0 8px}.admin-login a{color:#1d1d1f}
.admin-login__field{display:grid;gap:4px}.admin-login__field label{font-weight:600}
.admin-login__hint{margin:0;color:#555;font-size:.9em}.admin-login__field-error{margin:0;color:#b00020;font-weight:600}
.admin-login input[aria-invalid=true]{border-color:#b00020;border-width:2px}
.admin-login input:focus-visible,.admin-login button:focus-visible,.admin-login a:focus-visible{outline:3px solid #2b6cb0;outline-offset:2px}
.admin-login__links{margin:0;text-align:right}
@media (max-width:480px){.admin-login{max-width:none;margin:0;border-radius:0;box-shadow:none;min-height:100vh;box-sizing:border-box;padding:24px 20px}}
.admin-shell__bar{display:flex;gap:24px;align-items:center;padding:12px 24px;background:#fff;border-bottom:1px solid #ddd}
.admin-shell__bar ul{display:flex;gap:16px;list-style:none;margin:0;padding:0}.admin-shell__me{margin-left:auto}
.admin-shell__main{padding:24px}`;

/** /config: the sign-in page (server-rendered, works without scripts) and the React shell for owners. */
export async function adminRoutes(app: FastifyInstance, opts: { assets: ClientAssets }) {
  const { assets } = opts;

  app.get('/admin.css', async (_req, reply) =>
    reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(ADMIN_CSS),
  );

  app.get('/config/login', async (req, reply) => {
    const q = req.query as Record<string, unknown>;
    const props = {
      // A code mapped to a message (auth-routes.ts), never text from the address.
      error: signInError(q.error),
      next: typeof q.next === 'string' ? q.next.slice(0, 200) : undefined,
      crumb: req.crumb,
    };
    const body = `<div id="admin-root" data-page="login" data-props="${escapeHtml(JSON.stringify(props))}">${renderLoginPage(props)}</div>`;
    return doc(reply, assets, 'Sign in — Tessera', body);
  });

  const shell = async (req: FastifyRequest, reply: FastifyReply) => {
    const owner = await app.loadOwner(req);
    if (!owner) return reply.redirect(`/config/login?next=${encodeURIComponent(req.url.split('?')[0] ?? '/config')}`, 303);
    // Until the owner has chosen an email and password, every screen leads to the screen that asks for them.
    if (await app.services.owners.needsSetup(owner.id)) return reply.redirect('/config/welcome', 303);
    return doc(
      reply,
      assets,
      'Tessera',
      `<div id="admin-root" data-page="shell"><noscript>The Tessera admin needs JavaScript.</noscript></div>`,
    );
  };
  app.get('/config', shell);
  app.get('/config/*', shell);
}
