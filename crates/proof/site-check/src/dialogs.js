// Run by the browser before any script of every page site-check opens
// (Page.addScriptToEvaluateOnNewDocument). A page of a generated site that
// opens a dialog is running a script nobody meant it to (a payload that
// escaped the generator's escaping, most likely), so each alert, confirm
// or prompt is recorded for page.js to report, and answered at once as if
// dismissed, so that the page and the check go on.
(() => {
  const opened = [];
  Object.defineProperty(window, "__siteCheckDialogs", { value: opened });
  for (const kind of ["alert", "confirm", "prompt"]) {
    window[kind] = (message) => {
      opened.push(kind + "(" + JSON.stringify(String(message ?? "")) + ")");
      return kind === "confirm" ? false : null;
    };
  }
})();
