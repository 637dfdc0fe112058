/**
 * The editing canvas: sections of blocks on the 12-column grid, as wide as the chosen device. Blocks
 * are focusable; the selected one carries its tools (move, resize, duplicate, delete). Blocks move by
 * dragging (native drag and drop) and by keyboard (Alt+Arrow keys, or the Move buttons); they resize
 * by dragging their right edge, with Alt+Left/Right, or the Narrower/Wider buttons.
 */
import { useRef, useState, useSyncExternalStore, type KeyboardEvent, type PointerEvent as ReactPointerEvent } from 'react';
import { BlockType } from '../../../../core/enums.js';
import {
  GRID_COLUMNS,
  blockLabel,
  checkMediaUrl,
  isRenderedBlock,
  type Block,
  type Breakpoint,
  type PageLayout,
} from '../../../../core/layout.js';
import { pageEditor } from '../../../../core/messages.js';
import { textColourOn, type ColourTheme } from '../../../../core/site-styles.js';
import { blockName, blockSummary, isRichTextBlock, kindName, readTextBlock, richTextStore } from './blocks.js';
import { RichText } from './RichText.js';
import { SiteBlock, useBlockPictures } from './site-blocks.js';
import type { EditTarget } from './api.js';

export type Device = 'desktop' | 'tablet' | 'phone';
export const DEVICE_WIDTHS: Readonly<Record<Device, number>> = { desktop: 1280, tablet: 768, phone: 375 };
/** Phones use the mobile placement (mobile up to 432 px); tablets and desktops the desktop one. */
export const breakpointOf = (d: Device): Breakpoint => (d === 'phone' ? 'mobile' : 'desktop');

export interface CanvasActions {
  select(id: string | null): void;
  moveUp(id: string): void;
  moveDown(id: string): void;
  moveTo(id: string, sectionId: string, index: number): void;
  resize(id: string, w: number): void;
  duplicate(id: string): void;
  remove(id: string): void;
  openPalette(sectionId: string): void;
  addSection(index: number): void;
  moveSection(id: string, toIndex: number): void;
  duplicateSection(id: string): void;
  deleteSection(id: string): void;
  styleSection(id: string, theme: string): void;
  /** A text block's HTML, edited in place (`key` groups typing into one undo step). */
  editText(id: string, html: string, key: string): void;
}

interface CanvasProps {
  /** The page or post whose blocks these are, for their pictures as the site renders them. */
  target: EditTarget;
  layout: PageLayout;
  device: Device;
  selectedId: string | null;
  products: ReadonlyArray<{ id: string; title: string }>;
  invalidBlocks: ReadonlySet<string>;
  /** The site's colour themes (site styles), for section colours and the theme picker. */
  themes: readonly ColourTheme[];
  actions: CanvasActions;
}

const DRAG_TYPE = 'application/x-tessera-block';

export function Canvas({ target, layout, device, selectedId, products, invalidBlocks, themes, actions }: CanvasProps) {
  const bp = breakpointOf(device);
  const { pictures, look } = useBlockPictures(target, layout);
  useSyncExternalStore(richTextStore.subscribe, richTextStore.version);
  const [dragging, setDragging] = useState<string | null>(null);
  const [over, setOver] = useState<string | null>(null);
  const [resizing, setResizing] = useState<{ id: string; w: number } | null>(null);
  const dragId = useRef<string | null>(null);

  const onBlockKey = (e: KeyboardEvent, b: Block) => {
    if (e.target !== e.currentTarget) return;
    if (e.altKey && e.key === 'ArrowUp') actions.moveUp(b.id);
    else if (e.altKey && e.key === 'ArrowDown') actions.moveDown(b.id);
    else if (e.altKey && e.key === 'ArrowLeft') actions.resize(b.id, b[bp].w - 1);
    else if (e.altKey && e.key === 'ArrowRight') actions.resize(b.id, b[bp].w + 1);
    else if (e.key === 'Delete') actions.remove(b.id);
    else return;
    e.preventDefault();
  };

  const startResize = (e: ReactPointerEvent<HTMLDivElement>, b: Block) => {
    e.preventDefault();
    e.stopPropagation();
    const handle = e.currentTarget;
    const blockEl = handle.parentElement!;
    const grid = blockEl.parentElement!;
    const col = grid.getBoundingClientRect().width / GRID_COLUMNS;
    const left = blockEl.getBoundingClientRect().left;
    handle.setPointerCapture(e.pointerId);
    let w = b[bp].w;
    const move = (ev: PointerEvent) => {
      w = Math.max(1, Math.min(GRID_COLUMNS - b[bp].x, Math.round((ev.clientX - left) / col)));
      setResizing({ id: b.id, w });
    };
    const up = () => {
      handle.removeEventListener('pointermove', move);
      handle.removeEventListener('pointerup', up);
      handle.removeEventListener('pointercancel', up);
      setResizing(null);
      if (w !== b[bp].w) actions.resize(b.id, w);
    };
    handle.addEventListener('pointermove', move);
    handle.addEventListener('pointerup', up);
    handle.addEventListener('pointercancel', up);
  };

  return (
    <div
      className="ed-canvas-frame"
      onClick={(e) => {
        // A click on the page around the blocks (not on a block or a control) clears the selection.
        const t = e.target as HTMLElement;
        if (
          t === e.currentTarget ||
          t.classList.contains('ed-canvas') ||
          t.classList.contains('ed-canvas__main') ||
          t.classList.contains('ed-section') ||
          t.classList.contains('ed-grid')
        )
          actions.select(null);
      }}
    >
      <div
        className="ed-canvas"
        style={{ width: device === 'desktop' ? '100%' : DEVICE_WIDTHS[device], maxWidth: DEVICE_WIDTHS.desktop }}
        data-device={device}
      >
        {/* As wide as the site's main column at this width (the theme's .site-main), so blocks wrap as they do there. */}
        <div className="ed-canvas__main">
          {layout.sections.length === 0 ? <p style={{ padding: 16 }}>This page is empty. Add a section to start.</p> : null}
          {layout.sections.map((section, si) => (
            <section
              key={section.id}
              aria-label={`Section ${si + 1}`}
              className={`ed-section ed-section--${section.theme}`}
              style={sectionStyle(themes, section.theme, section.background)}
            >
              <div className="ed-section__bar">
                <button type="button" onClick={() => actions.openPalette(section.id)} aria-label={`Add block to section ${si + 1}`}>
                  Add block
                </button>
                <button
                  type="button"
                  onClick={() => actions.moveSection(section.id, si - 1)}
                  disabled={si === 0}
                  aria-label={`Move section ${si + 1} up`}
                >
                  ↑
                </button>
                <button
                  type="button"
                  onClick={() => actions.moveSection(section.id, si + 1)}
                  disabled={si === layout.sections.length - 1}
                  aria-label={`Move section ${si + 1} down`}
                >
                  ↓
                </button>
                <button type="button" onClick={() => actions.duplicateSection(section.id)} aria-label={`Duplicate section ${si + 1}`}>
                  Duplicate
                </button>
                <button type="button" onClick={() => actions.deleteSection(section.id)} aria-label={`Delete section ${si + 1}`}>
                  Delete
                </button>
                <label>
                  <span className="ed-visually-hidden">Section {si + 1} colour theme</span>
                  <select value={section.theme} onChange={(e) => actions.styleSection(section.id, e.target.value)}>
                    {(themes.some((t) => t.id === section.theme) ? themes : [{ id: section.theme, name: section.theme }, ...themes]).map(
                      (t) => (
                        <option key={t.id} value={t.id}>
                          {t.name}
                        </option>
                      ),
                    )}
                  </select>
                </label>
              </div>
              <div
                className="ed-grid"
                onDragOver={(e) => {
                  if (dragId.current) e.preventDefault();
                }}
                onDrop={(e) => {
                  if (e.target !== e.currentTarget || !dragId.current) return;
                  e.preventDefault();
                  actions.moveTo(dragId.current, section.id, section.blocks.length);
                  dragId.current = null;
                  setDragging(null);
                  setOver(null);
                }}
              >
                {section.blocks.length === 0 ? (
                  <p className="ed-placeholder" style={{ gridColumn: '1 / -1' }}>
                    No blocks yet. Use Add block, or drop a block here.
                  </p>
                ) : null}
                {section.blocks.map((b, bi) => {
                  const p = b[bp];
                  const w = resizing?.id === b.id ? resizing.w : p.w;
                  const selected = selectedId === b.id;
                  const name = blockName(b, products);
                  const inPlace = selected && isRichTextBlock(b);
                  const picture = pictures.get(b.id);
                  return (
                    <div
                      key={b.id}
                      id={`ed-block-${b.id}`}
                      role="group"
                      aria-label={name}
                      aria-describedby="ed-block-help"
                      aria-current={selected ? 'true' : undefined}
                      aria-invalid={invalidBlocks.has(b.id) ? true : undefined}
                      tabIndex={0}
                      draggable={!inPlace}
                      className={`ed-block${selected ? ' ed-block--selected' : ''}${inPlace ? ' ed-block--editing' : ''}${dragging === b.id ? ' ed-block--dragging' : ''}${over === b.id ? ' ed-block--over' : ''}`}
                      style={{
                        gridColumn: `${Math.min(p.x, GRID_COLUMNS - w) + 1} / span ${w}`,
                        gridRow: `${p.y + 1} / span ${p.h}`,
                        ...(invalidBlocks.has(b.id) ? { outline: '2px solid #a00000' } : {}),
                      }}
                      onFocus={(e) => {
                        if (e.target === e.currentTarget && !selected) actions.select(b.id);
                      }}
                      onClick={() => {
                        if (!selected) actions.select(b.id);
                      }}
                      onKeyDown={(e) => onBlockKey(e, b)}
                      onDragStart={(e) => {
                        dragId.current = b.id;
                        e.dataTransfer.setData(DRAG_TYPE, b.id);
                        e.dataTransfer.effectAllowed = 'move';
                        setDragging(b.id);
                      }}
                      onDragEnd={() => {
                        dragId.current = null;
                        setDragging(null);
                        setOver(null);
                      }}
                      onDragOver={(e) => {
                        if (!dragId.current || dragId.current === b.id) return;
                        e.preventDefault();
                        e.dataTransfer.dropEffect = 'move';
                        if (over !== b.id) setOver(b.id);
                      }}
                      onDragLeave={() => {
                        if (over === b.id) setOver(null);
                      }}
                      onDrop={(e) => {
                        const id = dragId.current;
                        if (!id || id === b.id) return;
                        e.preventDefault();
                        e.stopPropagation();
                        actions.moveTo(id, section.id, bi);
                        dragId.current = null;
                        setDragging(null);
                        setOver(null);
                      }}
                    >
                      <div className="ed-block__type" aria-hidden="true">
                        {kindName(b)} · {w}/{GRID_COLUMNS}
                      </div>
                      {inPlace ? (
                        <div className="ed-inplace">
                          <RichText
                            label="Text"
                            value={String(b.data.html ?? '')}
                            onChange={(html, key) => actions.editText(b.id, html, key)}
                          />
                        </div>
                      ) : picture && look ? (
                        <SiteBlock picture={picture} look={look} theme={section.theme} />
                      ) : (
                        <BlockContent block={b} products={products} />
                      )}
                      {selected ? (
                        <div className="ed-block__tools">
                          <button type="button" onClick={() => actions.moveUp(b.id)} disabled={si === 0 && bi === 0}>
                            Move up
                          </button>
                          <button
                            type="button"
                            onClick={() => actions.moveDown(b.id)}
                            disabled={si === layout.sections.length - 1 && bi === section.blocks.length - 1}
                          >
                            Move down
                          </button>
                          <button type="button" onClick={() => actions.resize(b.id, p.w - 1)} disabled={p.w <= 1}>
                            Narrower
                          </button>
                          <button type="button" onClick={() => actions.resize(b.id, p.w + 1)} disabled={p.w >= GRID_COLUMNS}>
                            Wider
                          </button>
                          <button type="button" onClick={() => actions.duplicate(b.id)}>
                            Duplicate
                          </button>
                          <button type="button" onClick={() => actions.remove(b.id)}>
                            Delete
                          </button>
                        </div>
                      ) : null}
                      <div
                        className="ed-block__resize"
                        aria-hidden="true"
                        title="Drag to resize"
                        onPointerDown={(e) => startResize(e, b)}
                      />
                    </div>
                  );
                })}
              </div>
            </section>
          ))}
          <div style={{ padding: 8 }}>
            <button type="button" onClick={() => actions.addSection(layout.sections.length)}>
              Add section
            </button>
          </div>
        </div>
      </div>
      <p id="ed-block-help" className="ed-visually-hidden">
        Alt+Up and Alt+Down move the block; Alt+Left and Alt+Right change its width; Delete removes it.
      </p>
    </div>
  );
}

/** A section's colours: its theme's background (or its own background colour) with the text colour the dark-colour test picks. */
function sectionStyle(themes: readonly ColourTheme[], themeId: string, background: string | null): React.CSSProperties {
  const theme = themes.find((t) => t.id === themeId);
  const bg = background ?? theme?.background ?? '#ffffff';
  return { background: bg, color: background ? textColourOn(bg) : textColourOn(bg, theme?.text ?? null) };
}

/** A light picture of the block's content; owner HTML is shown as text, never run. */
function BlockContent({ block: b, products }: { block: Block; products: ReadonlyArray<{ id: string; title: string }> }) {
  if (!isRenderedBlock(b.type)) return <p className="ed-placeholder">{pageEditor.PLACEHOLDER(blockLabel(b.type))}</p>;
  const d = b.data;
  const str = (k: string) => (typeof d[k] === 'string' ? (d[k] as string) : '');
  switch (b.type) {
    case BlockType.HTML: {
      const t = readTextBlock(str('html'));
      const summary = blockSummary(b);
      if (t.format === 'h1') return <div style={{ fontSize: '1.8em', fontWeight: 700 }}>{summary}</div>;
      if (t.format === 'h2') return <div style={{ fontSize: '1.5em', fontWeight: 700 }}>{summary}</div>;
      if (t.format === 'h3') return <div style={{ fontSize: '1.25em', fontWeight: 700 }}>{summary}</div>;
      return <div>{summary}</div>;
    }
    case BlockType.IMAGE: {
      const src = checkMediaUrl(str('assetUrl'));
      return src.ok && src.value ? <img src={src.value} alt={str('altText')} /> : <p className="ed-placeholder">No image yet</p>;
    }
    case BlockType.BUTTON:
      return (
        <span style={{ display: 'inline-block', padding: '6px 14px', borderRadius: 4, background: '#1d1d1f', color: '#fff' }}>
          {str('label') || '—'}
        </span>
      );
    case BlockType.SPACER:
      return null;
    case BlockType.HORIZONTAL_RULE:
      return <hr />;
    default:
      return <div>{blockSummary(b, products)}</div>;
  }
}
