/**
 * The browser scripts of the script-built shapes: plain ES2019, no framework, served as
 * `application/javascript`. Each reads what it needs from the page's location (or its data
 * island), fetches the shape's JSON API and builds the links with DOM calls.
 */

/** Helpers every script starts with. */
const PRELUDE = `"use strict";
function getJson(url) {
  return fetch(url, { headers: { accept: "application/json" } }).then(function (response) {
    if (!response.ok) throw new Error(url + " answered " + response.status);
    return response.json();
  });
}
function linkItem(list, href, text) {
  var item = document.createElement("li");
  var link = document.createElement("a");
  link.setAttribute("href", href);
  link.textContent = text;
  item.appendChild(link);
  list.appendChild(item);
}
function heading(root, text) {
  var h1 = document.createElement("h1");
  h1.textContent = text;
  root.appendChild(h1);
}
function fail(root, error) {
  var p = document.createElement("p");
  p.className = "error";
  p.textContent = "Could not load this list: " + error.message;
  root.appendChild(p);
}
function fileList(root, files) {
  var list = document.createElement("ul");
  list.className = "files";
  files.forEach(function (file) { linkItem(list, file.download_url, file.title); });
  root.appendChild(list);
}
`;

const wrap = (body: string) => `(function () {\n${PRELUDE}${body}})();\n`;

/** scripted-listing: a section's page of publications and its numbered pager. */
export const LISTING_JS = wrap(`var root = document.getElementById("app");
var section = location.pathname.split("/")[1];
var page = new URLSearchParams(location.search).get("page") || "1";
getJson("/api/listing?section=" + encodeURIComponent(section) + "&page=" + encodeURIComponent(page)).then(function (data) {
  heading(root, data.title + " (page " + data.page + " of " + data.pages + ")");
  var list = document.createElement("ul");
  list.className = "publications";
  data.items.forEach(function (item) { linkItem(list, item.url, item.title); });
  root.appendChild(list);
  var pager = document.createElement("div");
  pager.className = "pager";
  for (var n = 1; n <= data.pages; n++) {
    if (n === data.page) continue;
    var link = document.createElement("a");
    link.setAttribute("href", "?page=" + n);
    link.textContent = String(n);
    pager.appendChild(link);
    pager.appendChild(document.createTextNode(" "));
  }
  root.appendChild(pager);
}).catch(function (error) { fail(root, error); });
`);

/** scripted-listing: a publication's files. */
export const PUBLICATION_JS = wrap(`var root = document.getElementById("app");
var id = location.pathname.split("/")[2];
getJson("/api/publication/" + encodeURIComponent(id)).then(function (data) {
  heading(root, data.title);
  fileList(root, data.files);
}).catch(function (error) { fail(root, error); });
`);

/** The batch loop shared by load-more and infinite-scroll: \`load()\` appends the next batch. */
const BATCHES = `var list = document.createElement("ul");
list.id = "files";
root.appendChild(list);
var loading = false;
function load(done) {
  if (loading || !next) return;
  loading = true;
  getJson(next).then(function (data) {
    data.files.forEach(function (file) { linkItem(list, file.download_url, file.title); });
    next = data.next;
    loading = false;
    document.body.setAttribute("data-loaded", String(list.children.length));
    done();
  }).catch(function (error) { loading = false; fail(root, error); });
}
`;

/** load-more: the first batch, then one more per click on "Load more" until the API has no next. */
export const LOAD_MORE_JS = wrap(`var root = document.getElementById("root");
var listing = location.pathname.split("/")[1];
var next = "/api/files?listing=" + encodeURIComponent(listing) + "&offset=0&limit=10";
${BATCHES}var button = document.createElement("button");
button.type = "button";
button.id = "load-more";
button.textContent = "Load more";
button.hidden = true;
root.appendChild(button);
function settle() { button.hidden = !next; }
button.addEventListener("click", function () { load(settle); });
load(settle);
`);

/**
 * infinite-scroll: the first batch, then the next whenever a sentinel below the list comes near
 * the viewport (IntersectionObserver); list items are tall, so one batch fills more than a screen.
 */
export const INFINITE_SCROLL_JS = wrap(`var root = document.getElementById("__next");
var props = JSON.parse(document.getElementById("__NEXT_DATA__").textContent).props;
var next = "/api/files?listing=" + encodeURIComponent(props.listing) + "&offset=0&limit=" + props.batch;
${BATCHES}var sentinel = document.createElement("div");
sentinel.id = "sentinel";
root.appendChild(sentinel);
var observer = new IntersectionObserver(function (entries) {
  if (entries[entries.length - 1].isIntersecting) load(settle);
}, { rootMargin: "200px" });
function settle() {
  if (!next) { observer.disconnect(); sentinel.remove(); }
}
load(function () { settle(); if (next) observer.observe(sentinel); });
`);

/**
 * hostile-scripted: tries to reach every URL of \`forbidden\` by each channel a page has (the
 * query says which: \`via=fetch\`, \`xhr\`, \`img\`, \`iframe\`, \`websocket\`, \`beacon\`, \`worker\`),
 * then renders its honest files. Every attempt is guarded, so a refusal never stops the page.
 */
export function hostileJs(forbidden: readonly string[]): string {
  return wrap(`var FORBIDDEN = ${JSON.stringify(forbidden)};
function via(url, how) { return url + (url.indexOf("?") < 0 ? "?" : "&") + "via=" + how; }
var root = document.querySelector("app-root");
FORBIDDEN.forEach(function (url) {
  try { fetch(via(url, "fetch"), { mode: "no-cors" }).catch(function () {}); } catch (e) {}
  try { var xhr = new XMLHttpRequest(); xhr.open("GET", via(url, "xhr")); xhr.onerror = function () {}; xhr.send(); } catch (e) {}
  try { var img = new Image(1, 1); img.alt = ""; img.src = via(url, "img"); document.body.appendChild(img); } catch (e) {}
  try { var frame = document.createElement("iframe"); frame.width = "1"; frame.height = "1"; frame.src = via(url, "iframe"); document.body.appendChild(frame); } catch (e) {}
  try { var socket = new WebSocket(via(url.replace(/^http/, "ws"), "websocket")); socket.onerror = function () {}; } catch (e) {}
  try { navigator.sendBeacon(via(url, "beacon"), "beacon"); } catch (e) {}
});
try { new Worker("/static/hostile-worker.js").postMessage(FORBIDDEN); } catch (e) {}
var id = location.pathname.split("/")[2];
getJson("/api/hostile/" + encodeURIComponent(id)).then(function (data) {
  heading(root, data.title);
  fileList(root, data.files);
}).catch(function (error) { fail(root, error); });
`);
}

/** hostile-scripted's worker: fetches every URL it is sent. */
export const HOSTILE_WORKER_JS = `"use strict";
self.onmessage = function (event) {
  event.data.forEach(function (url) {
    fetch(url + (url.indexOf("?") < 0 ? "?" : "&") + "via=worker", { mode: "no-cors" }).catch(function () {});
  });
};
`;

/** never-ending: renders the first half of its files, then blocks its main thread for good. */
export const SPIN_JS = wrap(`var root = document.getElementById("app");
getJson("/api/spin").then(function (data) {
  heading(root, data.title);
  fileList(root, data.files.slice(0, Math.ceil(data.files.length / 2)));
  document.body.setAttribute("data-rendered", "half");
  for (;;) {}
}).catch(function (error) { fail(root, error); });
`);

/** never-ending: renders all its files, then asks /api/ping every 50 ms forever (the network never idles). */
export const PING_JS = wrap(`var root = document.getElementById("app");
getJson("/api/ping-page").then(function (data) {
  heading(root, data.title);
  fileList(root, data.files);
  document.body.setAttribute("data-rendered", "all");
  setInterval(function () { fetch("/api/ping").catch(function () {}); }, 50);
}).catch(function (error) { fail(root, error); });
`);
