/**
 * /config/pages/:id: the page editor; /config/posts/:id: the same editor for a journal post's body (issue 27),
 * with the post's fields in the side panel, Publish/Schedule on the site's clocks, and for admins the body as HTML. The layout lives in an undo history; every change is checked
 * with core's validateLayout and, when valid, saved as the draft after a short pause (autosave).
 * Saves carry the page version: when another owner saved in between, the server answers 409 and the
 * editor stops saving and offers 'Reload' (nothing is overwritten). Publish sends the layout and
 * makes it the visitors' page.
 */
import { useState } from 'react';
import type { createBlock } from '../../../../core/layout.js';
import { Canvas, breakpointOf, type Device } from './Canvas.js';
import { LoadFailed, StatusBadge } from './PagesScreen.js';
import { EDITOR_CSS } from './styles.js';
import { findBlock, usePageDocument } from './page-document.js';
import { useLayoutCommands } from './page-commands.js';
import { canvasActions } from './canvas-actions.js';
import { pageCalls } from './page-calls.js';
import {
  BlockPalette,
  EditorBanners,
  EditorNotes,
  EditorToolbar,
  HtmlBodyForm,
  PreviewDialog,
  ScheduleFor,
  SidePanel,
  type Editor,
} from './PageEditorParts.js';

export { AUTOSAVE_DELAY_MS } from './page-document.js';

export function PageEditor({ id, kind = 'page' }: { id: string; kind?: 'page' | 'post' }) {
  const isPost = kind === 'post';
  const noun = isPost ? 'post' : 'page';
  const doc = usePageDocument(id, isPost);
  const commands = useLayoutCommands(doc);
  const [htmlMode, setHtmlMode] = useState<string | null>(null);
  const [device, setDevice] = useState<Device>('desktop');
  const [palette, setPalette] = useState<string | null>(null);
  const [preview, setPreview] = useState<number | null>(null);
  const [scheduling, setScheduling] = useState(false);
  const { page, hist, layout, validation, loadError, load, serverErrors, selectedId, lists, themes } = doc;

  if (loadError) {
    return (
      <>
        <style>{EDITOR_CSS}</style>
        <h1>{isPost ? 'Post editor' : 'Page editor'}</h1>
        <LoadFailed onRetry={load} detail={loadError} />
        <p>
          <a href={isPost ? '/config/posts' : '/config/pages'}>{isPost ? 'All posts' : 'All pages'}</a>
        </p>
      </>
    );
  }
  if (!page || !layout || !hist || !validation) {
    return (
      <>
        <style>{EDITOR_CSS}</style>
        <p>Loading…</p>
      </>
    );
  }

  const bp = breakpointOf(device);
  const { actions, addFromPalette } = canvasActions({ doc, commands, layout, bp, palette, setPalette });
  const calls = pageCalls({ doc, id, isPost, page, setHtmlMode, setPreview });
  const ed: Editor = {
    doc,
    commands,
    calls,
    isPost,
    page,
    layout,
    hist,
    validation,
    device,
    setDevice,
    htmlMode,
    setHtmlMode,
    setScheduling,
  };
  const invalidBlocks = new Set<string>();
  for (const k of Object.keys(validation.errors)) {
    const m = k.match(/^sections\.(\d+)\.blocks\.(\d+)\./);
    const b = m ? layout.sections[Number(m[1])]?.blocks[Number(m[2])] : undefined;
    if (b) invalidBlocks.add(b.id);
  }
  for (const blockId of Object.keys(serverErrors)) if (findBlock(layout, blockId)) invalidBlocks.add(blockId);

  return (
    <>
      <style>{EDITOR_CSS}</style>
      <p>
        <a href={isPost ? '/config/posts' : '/config/pages'}>{isPost ? 'All posts' : 'All pages'}</a>
      </p>
      <h1>
        Edit {noun}: {page.title} <StatusBadge status={page.status} />
      </h1>
      <EditorBanners doc={doc} />
      <EditorToolbar ed={ed} />
      <EditorNotes doc={doc} page={page} isPost={isPost} />
      <div className="ed-shell">
        {htmlMode !== null ? (
          <HtmlBodyForm ed={ed} />
        ) : (
          <Canvas
            target={{ kind, id }}
            layout={layout}
            device={device}
            selectedId={selectedId}
            products={lists.products}
            invalidBlocks={invalidBlocks}
            themes={themes}
            actions={actions}
          />
        )}
        <SidePanel ed={ed} bp={bp} />
      </div>
      {palette ? (
        <BlockPalette
          layout={layout}
          onAdd={(code: number, init?: Parameters<typeof createBlock>[1]) => addFromPalette(code, init)}
          onClose={() => setPalette(null)}
        />
      ) : null}
      {preview !== null ? (
        <PreviewDialog at={preview} page={page} device={device} setDevice={setDevice} onClose={() => setPreview(null)} />
      ) : null}
      {scheduling ? <ScheduleFor doc={doc} calls={calls} onClose={() => setScheduling(false)} /> : null}
    </>
  );
}
