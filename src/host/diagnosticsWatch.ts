import * as vscode from 'vscode';
import { diagnosticsDelta } from '../checker/delta';
import type { DocumentDiagnostics } from '../checker/delta';
import { inTabs } from './navigationHost';
import type { DiagnosticsAroundWrite, DiagnosticsWatch, HostDiagnostic, ReportedDiagnostic, WatchedFile } from '../core/documents/editorPort';

/** How long a document's diagnostics must stay unchanged after a report before they count as settled. */
const QUIET_MS = 300;

const SEVERITY: HostDiagnostic['severity'][] = ['Error', 'Warning', 'Information', 'Hint'];

function reported(uri: vscode.Uri): ReportedDiagnostic[] {
  return vscode.languages.getDiagnostics(uri).map((d) => {
    const code = typeof d.code === 'object' && d.code !== null ? d.code.value : d.code;
    return {
      path: uri.fsPath,
      line: d.range.start.line + 1,
      column: d.range.start.character + 1,
      ...(code !== undefined ? { code: String(code) } : {}),
      message: d.message,
      severity: SEVERITY[d.severity] ?? 'Error',
      ...(d.source ? { source: d.source } : {}),
    };
  });
}

/** What a window has seen of each language's diagnostics: a service that reported, or one that stayed silent through a whole wait. */
export type LanguageReporting = Map<string, 'reports' | 'silent'>;

/**
 * A language service's diagnostics of the documents a commit writes, before and after the write.
 * `seen` (the host's, for the window's life): a language that never reported and stayed silent
 * through a wait is not waited for again (its documents are answered as silent); one that ever
 * reported always is.
 */
export async function watchDiagnostics(
  files: readonly WatchedFile[],
  timeoutMs: number,
  open: (absPath: string) => Promise<vscode.TextDocument | undefined>,
  seen: LanguageReporting,
): Promise<DiagnosticsWatch> {
  const lastReport = new Map<string, number>();
  const languageOf = new Map<string, string>();
  const subscription = vscode.languages.onDidChangeDiagnostics((e) => {
    for (const uri of e.uris) {
      if (uri.scheme !== 'file') continue;
      lastReport.set(uri.fsPath, Date.now());
      const language = languageOf.get(uri.fsPath);
      if (language) seen.set(language, 'reports');
    }
  });
  const textOf = new Map<string, string>();

  /** Waits until every path has a report after `since` that stayed quiet, or the deadline; paths of silent languages are not waited for. */
  const quiet = async (paths: readonly string[], since: number, waitMs: number): Promise<void> => {
    const waited = paths.filter((p) => seen.get(languageOf.get(p) ?? '') !== 'silent');
    const deadline = Date.now() + waitMs;
    for (;;) {
      const now = Date.now();
      const pending = waited.filter((p) => {
        const at = lastReport.get(p);
        return at === undefined || at < since || now - at < QUIET_MS;
      });
      if (pending.length === 0) return;
      if (now >= deadline) {
        // A language that never reported and stayed silent through a whole wait: no service checks it here.
        for (const language of new Set(waited.map((p) => languageOf.get(p) ?? ''))) {
          if (!seen.has(language) && waited.every((p) => languageOf.get(p) !== language || (lastReport.get(p) ?? 0) < since)) seen.set(language, 'silent');
        }
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  // Services that pull diagnostics (JSON, CSS, HTML through vscode-languageclient) check only
  // documents shown in a tab: each written document is shown (without focus) and the tabs this
  // watch opened are closed when it ends.
  const tabbed = inTabs();
  const shown = new Set<string>();
  const show = async (doc: vscode.TextDocument): Promise<void> => {
    if (tabbed.has(doc.uri.fsPath) || shown.has(doc.uri.fsPath)) return;
    shown.add(doc.uri.fsPath);
    await vscode.window.showTextDocument(doc, { preview: false, preserveFocus: true });
  };
  const closeShown = async (): Promise<void> => {
    const tabs = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter((t) => t.input instanceof vscode.TabInputText && shown.has(t.input.uri.fsPath) && !t.isDirty);
    if (tabs.length > 0) await vscode.window.tabGroups.close(tabs, true);
  };

  const started = Date.now();
  const before = files.flatMap((f) => (f.before ? [f.before] : []));
  const openedNow: string[] = [];
  for (const p of before) {
    const wasChecked = tabbed.has(p);
    const doc = await open(p);
    if (!doc) continue;
    languageOf.set(p, doc.languageId);
    textOf.set(`before:${p}`, doc.getText());
    await show(doc);
    if (!wasChecked) openedNow.push(p);
  }
  // A document open before is taken as its service left it; one opened now is given time to be checked.
  await quiet(openedNow, started, timeoutMs);
  const beforeDiagnostics = new Map(before.map((p) => [p, reported(vscode.Uri.file(p))]));
  const armed = Date.now();
  let disposed = false;
  const dispose = (): void => {
    if (!disposed) {
      subscription.dispose();
      void closeShown();
    }
    disposed = true;
  };

  return {
    dispose,
    async settle(waitMs: number): Promise<DiagnosticsAroundWrite> {
      try {
        const after = files.flatMap((f) => (f.after ? [f.after] : []));
        for (const p of after) {
          const doc = await open(p);
          if (!doc) continue;
          languageOf.set(p, doc.languageId);
          textOf.set(`after:${p}`, doc.getText());
          await show(doc);
        }
        await quiet(after, armed, waitMs);
        const documents: DocumentDiagnostics<ReportedDiagnostic>[] = files.map((f) => ({
          path: f.after ?? f.before ?? '',
          // Diagnostics are compared per document: a moved file's are compared under its new path.
          base: f.before ? (beforeDiagnostics.get(f.before) ?? []).map((d) => ({ ...d, path: f.after ?? d.path })) : [],
          staged: f.after ? reported(vscode.Uri.file(f.after)) : [],
          baseText: f.before ? textOf.get(`before:${f.before}`) : undefined,
          stagedText: f.after ? textOf.get(`after:${f.after}`) : undefined,
        }));
        const delta = diagnosticsDelta(documents);
        const restorePath = (d: ReportedDiagnostic): ReportedDiagnostic => {
          const moved = files.find((f) => f.after === d.path && f.before !== null && f.before !== f.after);
          return moved?.before ? { ...d, path: moved.before } : d;
        };
        return {
          introduced: delta.introduced,
          resolved: delta.resolved.map(restorePath),
          silent: after.filter((p) => (lastReport.get(p) ?? 0) < armed),
        };
      } finally {
        subscription.dispose();
        disposed = true;
        await closeShown();
      }
    },
  };
}
