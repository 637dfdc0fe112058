/**
 * The page editor's styles. The /config stylesheet is shared by every screen, so the editor carries its
 * own rules and renders them once in a <style> element of its screens.
 */
export const EDITOR_CSS = `
.ed-visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.ed-badge{display:inline-block;padding:2px 8px;border-radius:10px;font-size:.85em;background:#eee;color:#1d1d1f}
.ed-badge--published{background:#d9f2df;color:#0b5a1f}.ed-badge--draft{background:#eee}
.ed-badge--scheduled{background:#dde9ff;color:#123e8c}.ed-badge--needs-review{background:#fff1c2;color:#6b4e00}
.ed-badge--private{background:#f3dcdc;color:#7a1b1b}
.ed-list{list-style:none;padding:0;margin:0 0 24px;display:grid;gap:8px;max-width:720px}
.ed-list li{display:flex;gap:12px;align-items:center;padding:10px 12px;background:#fff;border:1px solid #ddd;border-radius:6px}
.ed-list a{font-weight:600}
.a-main:has(.ed-shell){max-width:none}
.ed-shell{display:grid;grid-template-columns:minmax(0,1fr) 320px;gap:16px;align-items:start}
.ed-toolbar{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin:0 0 12px;padding:8px;background:#fff;border:1px solid #ddd;border-radius:6px}
.ed-toolbar__spacer{flex:1}
.ed-shell button,.ed-toolbar button,.ed-dialog button{padding:6px 10px}
.ed-shell button[aria-pressed="true"],.ed-toolbar button[aria-pressed="true"]{outline:3px solid #2a6df4;outline-offset:1px}
.ed-shell button:disabled,.ed-toolbar button:disabled{opacity:.45;cursor:not-allowed}
.ed-save{min-width:7em;color:#444}
.ed-canvas-frame{background:#e9e9ee;border-radius:6px;padding:16px;overflow:auto}
.ed-canvas{margin:0 auto;background:#fff;box-shadow:0 1px 4px rgba(0,0,0,.15)}
/* The canvas draws sections and the grid with the theme's geometry (blocks.css .ts-section, .fe-grid; site.css .site-main); editor marks are outlines and overlays, which take no room. */
.ed-canvas__main{max-width:1120px;margin:0 auto;padding:24px 20px 64px}
.ed-section{position:relative;outline:1px dashed #bbb;outline-offset:-1px;margin:0 0 16px;padding:32px 16px;border-radius:10px}
/* The theme's phone rules (site.css and blocks.css, max-width 432px) for the canvas at phone width. */
.ed-canvas[data-device="phone"] .ed-canvas__main{padding:16px 16px 56px}.ed-canvas[data-device="phone"] .ed-section{padding:24px 12px}
.ed-section__bar{position:absolute;top:3px;left:8px;right:8px;display:flex;gap:4px;align-items:center;font-size:.75em;z-index:3}
.ed-section__bar button,.ed-section__bar select{padding:1px 6px;font-size:.85em}
.ed-grid{display:grid;grid-template-columns:repeat(12,minmax(0,1fr));grid-auto-rows:minmax(12px,auto);gap:8px 16px;max-width:1200px;margin:0 auto;min-height:48px}
.ed-block{position:relative;min-height:12px;min-width:0;cursor:grab;word-break:break-word}
.ed-block:hover{outline:1px dashed #2a6df4;outline-offset:2px}
.ed-site-block{display:block}
.ed-block:focus{outline:3px solid #2a6df4;outline-offset:2px}
.ed-block--selected{outline:2px solid #2a6df4;outline-offset:2px;z-index:2}.ed-block--editing{cursor:auto}
.ed-block--dragging{opacity:.4}.ed-block--over{box-shadow:0 -3px 0 #f4b400}
.ed-block__type{position:absolute;left:0;bottom:100%;display:none;font:600 11px/1.6 system-ui,sans-serif;color:#fff;background:#2a6df4;padding:0 6px;border-radius:3px 3px 0 0;text-transform:uppercase;letter-spacing:.04em;white-space:nowrap;z-index:3;pointer-events:none}
.ed-block:hover>.ed-block__type,.ed-block--selected>.ed-block__type{display:block}
.ed-block__tools{position:absolute;left:0;top:calc(100% + 4px);display:flex;flex-wrap:wrap;gap:4px;padding:4px;background:#fff;border:1px solid #2a6df4;border-radius:4px;z-index:4;font:13px/1.3 system-ui,sans-serif;min-width:max-content}
.ed-inplace .ed-rt__region{min-height:3em;max-height:none}
.ed-block__tools button{padding:2px 6px;font-size:.8em}
.ed-block img{max-width:100%;height:auto;display:block}
.ed-block__resize{position:absolute;top:0;right:0;width:8px;height:100%;cursor:ew-resize;touch-action:none}
.ed-block__resize:hover{background:rgba(42,109,244,.35)}
.ed-placeholder{color:#555;font-style:italic}
.ed-panel{position:sticky;top:8px;background:#fff;border:1px solid #ddd;border-radius:6px;padding:12px}
.ed-field,.ed-panel fieldset>label{display:grid;gap:4px;margin:0 0 10px}.ed-check{display:flex;gap:8px;align-items:center;margin:0 0 10px}
.ed-panel input,.ed-panel textarea,.ed-panel select{font:inherit;padding:6px;border:1px solid #999;border-radius:4px}
.ed-error{color:#a00000}
.ed-alert{padding:10px 12px;border:1px solid #a00000;background:#fff0f0;border-radius:6px;margin:0 0 12px;display:flex;gap:12px;align-items:center}
.ed-preview iframe{display:block;margin:0 auto;border:1px solid #bbb;background:#fff;height:70vh}
.sqs-lightbox-overlay{position:fixed;inset:0;background:rgba(0,0,0,.45);display:flex;align-items:flex-start;justify-content:center;overflow:auto;z-index:100}
.sqs-lightbox{background:#fff;border-radius:8px;margin:50px auto;padding:16px;max-width:min(1340px,96vw);box-shadow:0 6px 30px rgba(0,0,0,.3)}
.sqs-lightbox__header{display:flex;align-items:center;gap:12px;justify-content:space-between}
.sqs-lightbox__title{margin:0;font-size:1.2em}
.ed-palette{display:grid;grid-template-columns:repeat(auto-fill,minmax(150px,1fr));gap:6px;list-style:none;padding:0;max-width:760px}
.ed-palette button{width:100%;text-align:left}
.ed-swatches{display:flex;gap:8px;flex-wrap:wrap}
.ed-swatch{display:inline-block;width:28px;height:28px;border-radius:50%;border:1px solid #999;vertical-align:middle}
.ed-rt__label{font-weight:600}
.ed-rt__tools{display:flex;flex-wrap:wrap;gap:2px;padding:4px;border:1px solid #999;border-bottom:0;border-radius:4px 4px 0 0;background:#f6f6f8}
.ed-shell .ed-rt__tools button{padding:3px 7px;min-width:2em;min-height:28px;font-size:.85em;line-height:1;background:#fff;color:#1d1d1f;border:1px solid #bbb;border-radius:3px}
.ed-shell .ed-rt__tools button[aria-pressed="true"]{background:#1d1d1f;color:#fff;outline:none}
.ed-rt__tool--bold{font-weight:700}.ed-rt__tool--italic{font-style:italic}
.ed-rt__region{min-height:8em;max-height:24em;overflow:auto;padding:6px 8px;border:1px solid #999;border-radius:0 0 4px 4px;background:#fff;line-height:1.45}
.ed-rt__region:focus{outline:3px solid #2a6df4;outline-offset:1px}
.ed-rt__region[aria-invalid="true"]{border-color:#a00000}
.ed-rt__region>:first-child{margin-top:0}.ed-rt__region p{margin:0 0 .6em}.ed-rt__region ul,.ed-rt__region ol{margin:0 0 .6em;padding-left:1.4em}
.ed-rt__region h2{font-size:1.3em;margin:.4em 0}.ed-rt__region h3{font-size:1.1em;margin:.4em 0}.ed-rt__region a{color:#1a4fc4;text-decoration:underline}
.ed-rt__link{display:grid;gap:6px;padding:8px;margin:0;border:1px solid #999;border-top:0;background:#fffbe6}
.ed-rt__link form{display:grid;gap:4px}.ed-rt__link-actions{display:flex;gap:6px;flex-wrap:wrap}
.ed-panel .ed-field{grid-template-columns:minmax(0,1fr)}
.ed-panel input[type="file"]{width:100%;min-width:0;max-width:100%;box-sizing:border-box}
.ed-cover{display:block;max-width:100%;height:auto;border-radius:4px;margin:4px 0 8px}
.ed-html{display:grid;gap:6px;background:#fff;border:1px solid #ddd;border-radius:6px;padding:12px}
.ed-html textarea{font:13px/1.5 ui-monospace,monospace;padding:8px;border:1px solid #999;border-radius:4px;width:100%;box-sizing:border-box}
.ed-posts-tools{display:flex;flex-wrap:wrap;gap:12px;align-items:end;margin:0 0 16px}
.ed-posts-tools label{display:grid;gap:4px}
.ed-list li>span.ed-post-date{color:#555;font-size:.9em}
@media (max-width:860px){.ed-shell{grid-template-columns:minmax(0,1fr)}.ed-panel{position:static}.ed-list li{flex-wrap:wrap}}
`;
