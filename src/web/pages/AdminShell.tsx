import { useEffect, useState, type ReactNode } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../client/api.js';
import { screenFor } from '../admin/screens.js';
import { navGroups } from '../admin/nav.js';
import { AdminProviders, ScreenBoundary } from '../admin/ui/design.js';
import { allows, roleRefusal } from '../../core/roles.js';
import type { AdminShellInfo } from '../../core/api/platform.js';
import { setShopLocale } from '../admin/ui/dates.js';

type ShellInfo = AdminShellInfo;

async function signOut() {
  await api('POST', '/api/auth/logout');
  window.location.assign('/config/login');
}

/** The grouped navigation: in the sidebar at desktop widths, in the menu dialog on phones. */
function Nav({ current, role }: { current?: string; role?: number }) {
  // Until the shell knows the role, no entry is listed (rather than flashing screens the role cannot use).
  const groups = role === undefined ? [] : navGroups(undefined, role);
  return (
    <nav aria-label="Admin" className="a-nav">
      {groups.map((g, i) =>
        g.heading ? (
          <div key={g.heading} className="a-nav__group" role="group" aria-labelledby={`nav-h-${i}`}>
            <p className="a-nav__heading" id={`nav-h-${i}`}>
              {g.heading}
            </p>
            <NavList items={g.items} current={current} />
          </div>
        ) : (
          <NavList key={i} items={g.items} current={current} />
        ),
      )}
    </nav>
  );
}

function NavList({ items, current }: { items: Array<{ path: string; label?: string }>; current?: string }) {
  return (
    <ul>
      {items.map((s) => (
        <li key={s.path}>
          <a href={s.path} aria-current={current === s.path ? 'page' : undefined}>
            {s.label}
          </a>
        </li>
      ))}
    </ul>
  );
}

/** The phone menu: a modal dialog (focus trapped, Escape closes, focus back on the Menu button). */
function PhoneMenu({ current, role }: { current?: string; role?: number }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger asChild>
        <button type="button" className="a-topbar__menu" aria-label="Menu">
          <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path d="M3 6h18M3 12h18M3 18h18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
          Menu
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="a-overlay" />
        <Dialog.Content className="a-drawer" aria-describedby={undefined}>
          <div className="a-drawer__head">
            <Dialog.Title>Menu</Dialog.Title>
            <Dialog.Close asChild>
              <button type="button">Close</button>
            </Dialog.Close>
          </div>
          <Nav current={current} role={role} />
          <p>
            <a href="/" target="_blank" rel="noreferrer">
              View site
            </a>
          </p>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function OwnerMenu({ me }: { me?: ShellInfo }) {
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger asChild>
        <button type="button" className="a-avatar" aria-label={me ? `Account: ${me.displayName || me.email}` : 'Account'}>
          <span aria-hidden="true">{(me?.displayName || me?.email || '?').slice(0, 1).toUpperCase()}</span>
        </button>
      </DropdownMenu.Trigger>
      {/* Not portalled: the menu stays inside the top bar's landmark. */}
      <DropdownMenu.Content className="a-menu" align="end" sideOffset={6}>
        <DropdownMenu.Label className="a-menu__label">{me ? `Signed in as ${me.email}` : ''}</DropdownMenu.Label>
        {me && allows(me.role, 'settings', 'read') ? (
          <DropdownMenu.Item asChild className="a-menu__item">
            <a href="/config/settings">Site settings</a>
          </DropdownMenu.Item>
        ) : null}
        {me && allows(me.role, 'team', 'read') ? (
          <DropdownMenu.Item asChild className="a-menu__item">
            <a href="/config/team">Team</a>
          </DropdownMenu.Item>
        ) : null}
        <DropdownMenu.Item asChild className="a-menu__item">
          <a href="/" target="_blank" rel="noreferrer">
            View site
          </a>
        </DropdownMenu.Item>
        <DropdownMenu.Item className="a-menu__item" onSelect={() => void signOut()}>
          Sign out of Tessera
        </DropdownMenu.Item>
      </DropdownMenu.Content>
    </DropdownMenu.Root>
  );
}

/**
 * The browser tab names the screen: the screen's own heading (an order's number, a product's name) or its
 * label, then the site, then Tessera; it follows the heading as the screen loads or changes it.
 */
export function tabTitle(heading: string, label: string | undefined, site: string | undefined): string {
  const name = heading.replace(/\s+/g, ' ').trim() || label || '';
  return [name, site, 'Tessera'].filter((x) => x).join(' · ');
}

function useTabTitle(label: string | undefined, site: string | undefined) {
  useEffect(() => {
    const main = document.getElementById('main');
    if (!main) return;
    const update = () => {
      const next = tabTitle(main.querySelector('h1')?.textContent ?? '', label, site);
      if (document.title !== next) document.title = next;
    };
    update();
    const watch = new MutationObserver(update);
    watch.observe(main, { childList: true, subtree: true, characterData: true });
    return () => watch.disconnect();
  }, [label, site]);
}

function Frame({ children }: { children: (me: ShellInfo | undefined, reset: () => void) => ReactNode }) {
  const client = useQueryClient();
  const path = window.location.pathname;
  const screen = screenFor(path);
  const me = useQuery({ queryKey: ['shell'], queryFn: () => api<ShellInfo>('GET', '/api/admin/shell') });
  // Before the screens render with it: every date below is written the shop's way.
  if (me.data) setShopLocale(me.data.locale, me.data.timeZone);
  useTabTitle(screen?.label, me.data?.siteTitle);
  return (
    <div className="a-shell">
      <header className="a-topbar">
        <PhoneMenu current={screen?.path} role={me.data?.role} />
        <span className="a-topbar__site">{me.data?.siteTitle ?? 'Tessera'}</span>
        <span className="a-topbar__spacer" />
        <a className="a-button a-topbar__view" href="/" target="_blank" rel="noreferrer">
          View site
        </a>
        <OwnerMenu me={me.data} />
        <button type="button" onClick={() => void signOut()}>
          Sign out
        </button>
      </header>
      <div className="a-sidebar">
        <Nav current={screen?.path} role={me.data?.role} />
      </div>
      <main className="a-main" id="main">
        {children(me.data, () => void client.resetQueries())}
      </main>
    </div>
  );
}

/** A screen the signed-in role may not use: which roles it needs, in the words of the server's refusal. */
function Forbidden({ name, message }: { name: string; message: string }) {
  return (
    <section className="a-error-box" aria-labelledby="forbidden-h">
      <h1 id="forbidden-h">{name}</h1>
      <p role="alert">{message}</p>
      <p>
        <a href="/config">Back to Home</a>
      </p>
    </section>
  );
}

/** The /config shell: top bar, grouped sidebar (a menu dialog on phones), and the screen for the current path. */
export function AdminShell() {
  const path = window.location.pathname;
  const screen = screenFor(path);
  const Screen = screen?.component;
  return (
    <AdminProviders>
      <Frame>
        {(me, reset) =>
          Screen && me && !allows(me.role, screen.area, 'read') ? (
            <Forbidden name={screen.label ?? 'This screen'} message={roleRefusal(screen.area, 'read')} />
          ) : Screen ? (
            <ScreenBoundary websiteId={me?.websiteId ?? ''} name={screen.label ?? 'this screen'} onReset={reset}>
              <Screen path={path} />
            </ScreenBoundary>
          ) : (
            <h1>Not found</h1>
          )
        }
      </Frame>
    </AdminProviders>
  );
}
