// What site-check reads from one loaded page, in one WebDriver call: what
// only a browser knows (the page's own URL, its layout width, which images
// loaded, what it fetched, its scripts' doings included); what the HTML
// says is read without a browser (html.rs).
// Every URL is absolute (resolved against the page), as the browser would
// request it. Run asynchronously: a loaded machine can answer navigation
// before the load event (seen with a stylesheet in the body), and the facts
// are read only once the page is complete.
const done = arguments[arguments.length - 1];
const collect = () => {
  const elementName = (e) =>
    e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") +
    (typeof e.className === "string" && e.className.trim()
      ? "." + e.className.trim().split(/\s+/).join(".") : "");
  const innerWidth = window.innerWidth;
  const scrollWidth = document.documentElement.scrollWidth;
  let widest = "";
  if (scrollWidth > innerWidth) {
    // The first element in document order that reaches past the viewport is
    // the outermost one to blame: its ancestors are as wide as the viewport.
    for (const e of document.body ? document.body.querySelectorAll("*") : []) {
      if (e.getBoundingClientRect().right > innerWidth + 0.5) { widest = elementName(e); break; }
    }
  }
  const resources = [];
  const add = (kind, url) => { if (url) resources.push({ kind, url }); };
  for (const e of document.querySelectorAll("link[href]")) add("stylesheet or link", e.href);
  for (const e of document.querySelectorAll("script[src]")) add("script", e.src);
  for (const e of document.querySelectorAll("iframe[src], embed[src], video[src], audio[src], source[src], track[src]"))
    add(e.tagName.toLowerCase(), e.src);
  for (const e of document.querySelectorAll("object[data]")) add("object", e.data);
  for (const e of document.querySelectorAll("video[poster]")) add("video poster", e.poster);
  for (const e of performance.getEntriesByType("resource")) add("request", e.name);
  return {
    url: location.href.split("#")[0],
    scroll_width: scrollWidth,
    inner_width: innerWidth,
    widest,
    images: [...document.images].map((i) => ({
      src: i.currentSrc || i.src,
      loaded: i.complete && i.naturalWidth > 0,
    })),
    resources,
    // What dialogs.js recorded: each dialog the page's scripts opened.
    dialogs: window.__siteCheckDialogs ? [...window.__siteCheckDialogs] : [],
  };
};
if (document.readyState === "complete") done(collect());
else window.addEventListener("load", () => done(collect()));
