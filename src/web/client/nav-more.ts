/**
 * The default theme's header menu on one row: the entries that do not fit move, from the end, into a "More"
 * disclosure (its button and list come from the theme's <template>), and back as room returns. The button
 * says whether the list is open (aria-expanded); Escape closes it and puts focus back on the button, as do a
 * click elsewhere and focus leaving it. Without JavaScript the row wraps and every link stays where it is.
 */

/** Entries whose tops differ by more than this are on different rows. */
const SAME_ROW_PX = 2;

function onOneRow(items: readonly HTMLElement[]): boolean {
  const tops = items.filter((li) => !li.hidden).map((li) => li.getBoundingClientRect().top);
  return tops.every((t) => Math.abs(t - (tops[0] ?? 0)) <= SAME_ROW_PX);
}

/** Sets up the "More" menu of the page's desktop header menu; a page without the theme's template is left alone. */
export function enhanceNavMore(doc: Document = document): void {
  const host = doc.querySelector<HTMLElement>('.site-nav-desktop');
  const row = host?.querySelector<HTMLUListElement>('.site-nav > ul');
  const template = host?.querySelector<HTMLTemplateElement>('template.site-nav-more-template');
  const made = template?.content.firstElementChild;
  if (!host || !row || !made || row.querySelector('.site-nav__more')) return;
  const more = doc.importNode(made, true) as HTMLLIElement;
  const button = more.querySelector('button');
  const menu = more.querySelector('ul');
  if (!button || !menu) return;
  more.hidden = true;
  row.append(more);

  const setOpen = (open: boolean) => {
    button.setAttribute('aria-expanded', String(open));
    menu.hidden = !open;
  };
  button.addEventListener('click', () => setOpen(button.getAttribute('aria-expanded') !== 'true'));
  more.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape' || menu.hidden) return;
    e.preventDefault();
    setOpen(false);
    button.focus();
  });
  more.addEventListener('focusout', (e) => {
    if (e.relatedTarget instanceof Node && !more.contains(e.relatedTarget)) setOpen(false);
  });
  doc.addEventListener('click', (e) => {
    if (e.target instanceof Node && !more.contains(e.target)) setOpen(false);
  });

  const entries = () => [...row.children].filter((li): li is HTMLElement => li !== more && li instanceof HTMLElement);
  let width = -1;
  const fit = () => {
    const now = host.clientWidth;
    if (now === width) return;
    width = now;
    setOpen(false);
    // Every entry back in the row, then out from its end until the row, with the button, is one row.
    for (const li of [...menu.children]) row.insertBefore(li, more);
    more.hidden = true;
    if (onOneRow(entries())) return;
    more.hidden = false;
    let inRow = entries();
    while (inRow.length > 0 && !onOneRow([...inRow, more])) {
      menu.prepend(inRow[inRow.length - 1]!);
      inRow = entries();
    }
  };
  fit();
  let queued = false;
  const refit = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      fit();
    });
  };
  window.addEventListener('resize', refit);
  // Web fonts change the entries' widths once they arrive.
  void doc.fonts?.ready.then(() => {
    width = -1;
    refit();
  });
}
