/* global acquireVsCodeApi, window, document, CSS */
// The review panel's webview script. It only renders the model the extension sends and posts
// the person's clicks back as typed messages; the extension validates every message and checks it
// against the transaction that is active, so nothing here is trusted.
(function () {
  'use strict';
  const vscode = acquireVsCodeApi();
  const app = document.getElementById('app');
  let model = null;
  let busy = false;
  /** A long list shows its first files only (building a row for each of a thousand holds up the whole window); the person can ask for all. */
  const FILES_SHOWN = 100;
  /** The transaction whose every file the person asked to see. */
  let allFilesOf = null;

  /** Creates an element; text is always set as textContent (never parsed as HTML). */
  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'text') node.textContent = String(v);
      else if (k === 'className') node.className = v;
      else if (k === 'onClick') node.addEventListener('click', v);
      else if (k.startsWith('data'))
        node.setAttribute(
          k.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase()),
          String(v),
        );
      else node.setAttribute(k, v === true ? '' : String(v));
    }
    for (const c of children || []) if (c) node.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
    return node;
  }

  function seen() {
    return { workspaceId: model.workspace.id, transactionId: model.transaction.id, revision: model.transaction.state.revision };
  }

  function post(message) {
    vscode.postMessage(message);
  }

  /** Posts an action that changes the transaction; buttons stay disabled until the next model arrives. */
  function act(message) {
    if (busy) return;
    busy = true;
    post(message);
    render();
  }

  function button(label, opts) {
    return el(
      'button',
      {
        type: 'button',
        className: opts.className,
        'aria-label': opts.aria || label,
        title: opts.aria || label,
        dataFocusKey: opts.key,
        dataAction: opts.action,
        'aria-describedby': opts.describedBy,
        disabled: busy || opts.disabled,
        onClick: opts.onClick,
      },
      [label],
    );
  }

  const KIND_LETTER = { Added: 'A', Modified: 'M', Deleted: 'D', Renamed: 'R' };

  /** The tooltip of a path: all of it, and where a moved file came from. */
  function pathTitle(p, previousPath) {
    return previousPath ? `${p} (moved from ${previousPath})` : p;
  }

  /** Text whose paths wrap at their slashes: a summary names whole paths, and a break inside a file name hides it. */
  function breaksAfterSlashes(text) {
    return text.split(/(?<=\/)/).flatMap((piece, i) => (i === 0 ? [piece] : [el('wbr'), piece]));
  }

  /** A path shown as VS Code's Source Control view shows it: the file name, then its folder dimmed. */
  function nameThenFolder(item, lead) {
    return [
      // The lead (a change letter) stays on the name's line however the row wraps.
      el('span', { className: 'title' }, [lead, el('span', { className: 'name', text: item.name })]),
      el('span', { className: 'description' }, [
        item.folder ? el('span', { className: 'folder', text: item.folder }) : null,
        item.previousPath ? el('span', { className: 'from', text: `← ${item.previousPath}` }) : null,
      ]),
    ];
  }

  function toolbar(tx) {
    const s = tx.state;
    return el('div', { className: 'toolbar', role: 'toolbar', 'aria-label': 'Transaction actions' }, [
      button('Commit', {
        className: 'primary',
        key: 'commit',
        action: 'commit',
        disabled: !s.canCommit,
        aria: `Commit ${tx.filesText} staged at revision ${s.revision}`,
        // What the check found is the Commit button's description: heard before committing.
        describedBy: 'check',
        onClick: () => act({ type: 'action', action: 'commit', ...seen() }),
      }),
      button('Roll back', {
        key: 'rollback',
        action: 'rollback',
        disabled: !s.canRollback,
        aria: 'Roll back: discard the whole transaction, write nothing',
        onClick: () => act({ type: 'action', action: 'rollback', ...seen() }),
      }),
      button('Undo', {
        key: 'undo',
        action: 'undo',
        disabled: !s.canUndo,
        aria: `Undo revision ${s.revision}`,
        onClick: () => act({ type: 'action', action: 'undo', ...seen() }),
      }),
      button('Redo', {
        key: 'redo',
        action: 'redo',
        disabled: !s.canRedo,
        aria: `Redo revision ${s.revision + 1}`,
        onClick: () => act({ type: 'action', action: 'redo', ...seen() }),
      }),
      button('Open all changes', {
        key: 'all',
        action: 'openAllChanges',
        disabled: tx.files.length === 0,
        aria: 'Open all staged changes in the multi-file diff editor',
        onClick: () => post({ type: 'openAllChanges', workspaceId: model.workspace.id }),
      }),
    ]);
  }

  /** A glyph beside each severity's word: the word and the glyph say it, the colour only repeats it. */
  const GLYPH = { error: '✕', warning: '⚠', suggestion: 'ℹ', message: 'ℹ', resolved: '✓' };

  /** The check of the current revision, next to Commit: checking, what it found, or why there is none. */
  function checkSummary(tx) {
    const c = tx.check;
    const tone = c.state !== 'checked' ? c.state : c.introducedErrors > 0 ? 'errors' : c.introduced > 0 ? 'warnings' : 'clean';
    const glyph = { running: '○', unavailable: '–', errors: GLYPH.error, warnings: GLYPH.warning, clean: '✓' }[tone];
    return el('p', { id: 'check', className: `check ${tone}`, role: 'status', dataState: c.state, dataRevision: c.revision }, [
      el('span', { className: 'glyph', 'aria-hidden': 'true', text: glyph }),
      el('span', { className: 'check-text', text: c.text }),
      c.state === 'checked' && c.resolvedText ? el('span', { className: 'check-resolved', text: c.resolvedText }) : null,
      c.state === 'checked' ? el('span', { className: 'check-note' }, [el('span', { className: 'sep', 'aria-hidden': 'true', text: '·' }), c.note]) : null,
    ]);
  }

  /** Diagnostics as a list: severity (word and glyph), TS code, message, line:column. Resolved ones say so, quietly. */
  function diagnosticList(list, resolved, label) {
    if (!list || list.length === 0) return null;
    return el(
      'ul',
      { className: resolved ? 'diagnostics resolved' : 'diagnostics', 'aria-label': label },
      list.map((d) =>
        el('li', { className: `diagnostic sev-${resolved ? 'resolved' : d.severity}`, dataSeverity: d.severity, dataCode: d.code, dataLine: d.line }, [
          el('span', { className: 'sev' }, [
            el('span', { className: 'glyph', 'aria-hidden': 'true', text: GLYPH[resolved ? 'resolved' : d.severity] }),
            resolved ? `Resolved ${d.severityText.toLowerCase()}` : d.severityText,
          ]),
          el('code', { className: 'diag-code', text: d.code }),
          el('span', { className: 'message', text: d.message }),
          el('span', { className: 'position', text: resolved ? `was line ${d.line}:${d.column}` : `line ${d.line}:${d.column}` }),
        ]),
      ),
    );
  }

  function more(n, where) {
    return n > 0 ? el('p', { className: 'empty', text: `${n} more ${where}: transaction-check lists them all.` }) : null;
  }

  /** Files the transaction does not touch where it introduces or resolves diagnostics (importers of what it changed). */
  function elsewhere(tx) {
    if (tx.elsewhere.length === 0) return null;
    return el('div', { className: 'elsewhere' }, [
      el('h3', { id: 'elsewhere-heading', text: 'Not staged, but affected' }),
      el(
        'ul',
        { className: 'elsewhere-files', 'aria-labelledby': 'elsewhere-heading' },
        tx.elsewhere.map((e) =>
          el('li', { className: 'elsewhere-file', dataPath: e.path, title: e.path }, [
            el('div', { className: 'elsewhere-path' }, nameThenFolder(e)),
            diagnosticList(e.diagnostics, false, `New problems in ${e.path}`),
            diagnosticList(e.resolved, true, `Resolved in ${e.path}`),
            more(e.more, `in ${e.path}`),
          ]),
        ),
      ),
      more(tx.elsewhereMore, 'files'),
    ]);
  }

  /** A file row's badges: new problems (worst severity's glyph and the count), and quieter, resolved ones. */
  function badges(f) {
    const p = f.problems;
    if (!p) return null;
    return el('span', { className: 'badges', 'aria-hidden': 'true', title: p.text }, [
      p.introduced > 0 ? el('span', { className: `badge sev-${p.severity}`, dataBadge: 'introduced', text: `${GLYPH[p.severity]} ${p.introduced}` }) : null,
      p.resolved > 0 ? el('span', { className: 'badge sev-resolved', dataBadge: 'resolved', text: `${GLYPH.resolved} ${p.resolved}` }) : null,
    ]);
  }

  function fileList(tx) {
    if (tx.files.length === 0) return el('p', { className: 'empty', text: 'No file differs from its base at this revision.' });
    const cut = allFilesOf !== tx.id && tx.files.length > FILES_SHOWN;
    // The selected file stays in view even when it is past the first ones.
    const shown = cut ? tx.files.filter((f, i) => i < FILES_SHOWN || f.selected) : tx.files;
    const list = el(
      'ul',
      { className: 'files', 'aria-label': 'Changed files' },
      shown.map((f) =>
        el('li', { className: f.selected ? 'file selected' : 'file', dataPath: f.path, dataKind: f.changeKind }, [
          el(
            'button',
            {
              type: 'button',
              className: 'file-select',
              'aria-pressed': f.selected ? 'true' : 'false',
              'aria-label': `${f.description}. Show its hunks.`,
              title: pathTitle(f.path, f.previousPath),
              dataFocusKey: `file:${f.path}`,
              onClick: () => {
                post({ type: 'select', workspaceId: model.workspace.id, path: f.path });
              },
            },
            [
              ...nameThenFolder(f, el('span', { className: `kind kind-${f.changeKind}`, 'aria-hidden': 'true', text: KIND_LETTER[f.changeKind] })),
              el('span', { className: 'counts', 'aria-hidden': 'true' }, [
                el('span', { className: 'added', dataCount: 'added', text: `+${f.added}` }),
                ' ',
                el('span', { className: 'removed', dataCount: 'removed', text: `−${f.removed}` }),
              ]),
              badges(f),
            ],
          ),
          el('span', { className: 'file-actions' }, [
            button('Open diff', {
              className: 'secondary small',
              key: `diff:${f.path}`,
              action: 'openDiff',
              aria: `Open the diff of ${f.path} in the diff editor (its right side is editable)`,
              onClick: () => post({ type: 'openDiff', workspaceId: model.workspace.id, path: f.path }),
            }),
            button('Discard', {
              className: 'secondary small',
              key: `discard:${f.path}`,
              action: 'discardFile',
              aria: `Discard the staged change of ${f.path} (Undo brings it back)`,
              onClick: () => act({ type: 'discardFile', path: f.path, ...seen() }),
            }),
          ]),
        ]),
      ),
    );
    if (!cut) return list;
    const rest = tx.files.length - shown.length;
    return el('div', {}, [
      list,
      el('p', { className: 'more-files' }, [
        `${rest} more ${rest === 1 ? 'file' : 'files'} `,
        button(`Show all ${tx.files.length} files`, {
          className: 'secondary small',
          key: 'show-all-files',
          action: 'showAllFiles',
          onClick: () => {
            allFilesOf = tx.id;
            render();
          },
        }),
      ]),
    ]);
  }

  function revisions(tx) {
    if (tx.revisions.length === 0) return el('p', { className: 'empty', text: 'No revision yet.' });
    return el(
      'ol',
      { className: 'revisions', 'aria-label': 'Revisions, oldest first' },
      tx.revisions.map((r) =>
        el('li', { className: `revision ${r.status} by-${r.by}`, dataRevision: r.revision, 'aria-current': r.status === 'current' ? 'step' : undefined }, [
          el('span', { className: 'rev-number', text: `r${r.revision}` }),
          el('span', { className: 'rev-tool', text: r.tool }),
          el('span', { className: 'rev-summary', title: r.paths.join('\n') }, breaksAfterSlashes(r.summary)),
          el('span', { className: 'rev-by', text: r.by === 'person' ? 'by you' : 'by the agent' }),
          r.status === 'undone' ? el('span', { className: 'rev-undone', text: '(undone)' }) : null,
        ]),
      ),
    );
  }

  function diff(selected) {
    const title = pathTitle(selected.path, selected.previousPath);
    const parts = [el('h2', { id: 'diff-heading', className: 'diff-path', dataPath: selected.path, title, 'aria-label': title }, nameThenFolder(selected))];
    const fileLevel = diagnosticList(selected.diagnostics, false, `New problems in ${selected.path} outside the hunks shown`);
    if (fileLevel)
      parts.push(
        el('div', { className: 'file-diagnostics' }, [el('p', { className: 'diag-caption', text: 'In this file, outside the hunks shown:' }), fileLevel]),
      );
    if (selected.binary) parts.push(el('p', { className: 'empty', text: 'Not a text file: no hunks to show.' }));
    else if (selected.hunks.length === 0) parts.push(el('p', { className: 'empty', text: 'No line changes (moved or deleted without text).' }));
    for (const h of selected.hunks) {
      const worst = {};
      for (const d of h.diagnostics) if (!worst[d.line] || d.severity === 'error') worst[d.line] = d.severity;
      const problems = h.diagnostics.length > 0 ? `; ${h.diagnostics.length === 1 ? '1 new problem' : `${h.diagnostics.length} new problems`}` : '';
      const rows = h.rows.map((r) =>
        el('tr', { className: `row ${r.kind}`, dataProblem: r.newLine !== undefined ? worst[r.newLine] : undefined }, [
          el('td', { className: 'ln old', text: r.oldLine ?? '' }),
          el('td', { className: 'ln new', text: r.newLine ?? '' }),
          el('td', { className: 'sign', 'aria-hidden': 'true', text: r.kind === 'add' ? '+' : r.kind === 'remove' ? '-' : r.kind === 'note' ? '\\' : ' ' }),
          el('td', {
            className: 'code',
            text: r.text,
            title: r.cut ? `${r.cut.toLocaleString()} characters of this line are not shown (…): Open Diff shows it whole.` : undefined,
          }),
        ]),
      );
      parts.push(
        el(
          'div',
          {
            className: h.diagnostics.length > 0 ? 'hunk has-problems' : 'hunk',
            dataHunk: h.index,
            role: 'group',
            'aria-label': `Hunk ${h.index + 1}: ${h.header}${problems}`,
          },
          [
            el('div', { className: 'hunk-head' }, [
              el('code', { text: h.header }),
              button('Discard hunk', {
                className: 'secondary small',
                key: `hunk:${h.index}`,
                action: 'discardHunk',
                aria: `Discard hunk ${h.index + 1} of ${selected.path} (Undo brings it back)`,
                onClick: () =>
                  act({
                    type: 'discardHunk',
                    path: selected.path,
                    hunk: h.index,
                    originalStartLine: h.originalStartLine,
                    updatedStartLine: h.updatedStartLine,
                    ...seen(),
                  }),
              }),
            ]),
            el('table', { className: 'diff', role: 'table', 'aria-label': `Lines of hunk ${h.index + 1}` }, [el('tbody', {}, rows)]),
            diagnosticList(h.diagnostics, false, `New problems in hunk ${h.index + 1}`),
            diagnosticList(h.resolved, true, `Resolved in hunk ${h.index + 1}`),
          ],
        ),
      );
    }
    if (selected.truncated) parts.push(el('p', { className: 'empty', text: 'The diff is cut here; Open diff shows all of it.' }));
    parts.push(diagnosticList(selected.resolved, true, `Resolved in ${selected.path} outside the hunks shown`));
    parts.push(more(selected.more, `in ${selected.path}`));
    return el('section', { className: 'diff-section', 'aria-labelledby': 'diff-heading' }, parts);
  }

  function outcome() {
    const o = model && model.outcome;
    if (!o) return null;
    return el('div', { className: o.ok ? 'outcome ok' : 'outcome error', role: o.ok ? 'status' : 'alert', id: 'outcome' }, [
      el('span', { className: 'outcome-label', text: o.ok ? 'Done: ' : o.code ? `${o.code}: ` : 'Refused: ' }),
      o.message,
    ]);
  }

  /** With several folders open: which folder's transaction to show. */
  function folders() {
    if (!model || model.workspaces.length < 2) return null;
    return el(
      'nav',
      { className: 'folders', 'aria-label': 'Folders' },
      model.workspaces.map((w) =>
        el(
          'button',
          {
            type: 'button',
            className: 'secondary small',
            'aria-pressed': model.workspace && model.workspace.id === w.id ? 'true' : 'false',
            'aria-label': `Show the transaction of folder ${w.alias}`,
            dataFocusKey: `ws:${w.id}`,
            onClick: () => post({ type: 'showWorkspace', workspaceId: w.id }),
          },
          [w.alias],
        ),
      ),
    );
  }

  function render() {
    const active = document.activeElement;
    const focusKey = active && active.getAttribute ? active.getAttribute('data-focus-key') : null;
    const children = [];
    if (!model) {
      children.push(el('p', { className: 'empty', text: 'Loading…' }));
    } else if (!model.transaction) {
      children.push(folders());
      children.push(el('h1', { text: model.workspace ? `Nothing is staged in ${model.workspace.alias}` : 'No folder is open' }));
      children.push(outcome());
      children.push(
        el('p', {
          className: 'empty',
          text: 'When an agent stages a change with an Agent Workbench tool, it appears here for review before anything is written.',
        }),
      );
    } else {
      const tx = model.transaction;
      const s = tx.state;
      children.push(folders());
      children.push(
        el('header', { className: 'top' }, [
          el('h1', {}, ['Staged changes ', el('span', { className: 'ws', text: `in ${model.workspace.alias}` })]),
          el('p', { className: 'meta', id: 'meta' }, [
            `Revision ${s.revision} of ${s.revisionCount} (at most ${s.maxRevisions}) · ${tx.filesText} · `,
            el('span', { className: 'added', text: `+${tx.totals.added}` }),
            ' ',
            el('span', { className: 'removed', text: `−${tx.totals.removed}` }),
            ` · mode ${model.mode}`,
          ]),
        ]),
      );
      children.push(toolbar(tx));
      children.push(checkSummary(tx));
      children.push(outcome());
      if (model.personCommits)
        children.push(el('p', { className: 'note', text: 'Approval-required mode: agents cannot commit. Review the changes and commit here.' }));
      children.push(
        el('div', { className: 'columns' }, [
          el('section', { className: 'files-section', 'aria-labelledby': 'files-heading' }, [
            el('h2', { id: 'files-heading', text: 'Files' }),
            fileList(tx),
            elsewhere(tx),
          ]),
          el('section', { className: 'revisions-section', 'aria-labelledby': 'revisions-heading' }, [
            el('h2', { id: 'revisions-heading', text: 'Revisions' }),
            revisions(tx),
          ]),
        ]),
      );
      if (model.selected) children.push(diff(model.selected));
    }
    app.replaceChildren(...children.filter(Boolean));
    app.setAttribute('aria-busy', busy ? 'true' : 'false');
    if (focusKey) {
      const again = app.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`);
      if (again && !again.disabled) again.focus();
    }
  }

  window.addEventListener('message', (event) => {
    const message = event.data;
    if (!message || message.type !== 'model') return;
    model = message.model;
    busy = false;
    const selected = model.selected ? model.selected.path : undefined;
    vscode.setState({ workspaceId: model.workspace ? model.workspace.id : undefined, selected });
    render();
  });

  render();
  // After a reload the panel comes back with its last selection; the extension checks it like any message.
  const state = vscode.getState();
  if (state && typeof state.workspaceId === 'string' && typeof state.selected === 'string') {
    post({ type: 'select', workspaceId: state.workspaceId, path: state.selected });
  }
  post({ type: 'ready' });
})();
