/* global acquireVsCodeApi, document, setTimeout */
// "Connect an Agent over MCP…": each Copy button sends its block's id; the extension writes the text to the clipboard.
(function () {
  const vscode = acquireVsCodeApi();
  for (const button of document.querySelectorAll('button[data-copy]')) {
    button.addEventListener('click', () => {
      vscode.postMessage({ type: 'copy', id: button.getAttribute('data-copy') });
      button.textContent = 'Copied';
      setTimeout(() => (button.textContent = 'Copy'), 1500);
    });
  }
})();
