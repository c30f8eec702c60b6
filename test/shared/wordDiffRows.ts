/**
 * A rename's word diff (contextLines 0) read as rename rows: each changed line's number in the staged
 * text and that text, every `[-from-]{+to+}` read as `to`; a line marked any other way stays marked.
 */
export function wordDiffRows(diff: string, from: string, to: string): [number, string][] {
  const rows: [number, string][] = [];
  let line = 0;
  for (const l of diff.split('\n')) {
    const header = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@$/.exec(l);
    if (header) line = Number(header[1]);
    else rows.push([line++, l.split(`[-${from}-]{+${to}+}`).join(to)]);
  }
  return rows;
}
