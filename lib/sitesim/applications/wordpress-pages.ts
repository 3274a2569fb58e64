/**
 * HTML of a simulated WordPress 6.4 site with a classic theme (Twenty Twenty-One): the head
 * WordPress prints (generator tag, `<link rel="https://api.w.org/">` naming the REST root,
 * EditURI, feeds, /wp-content/ and /wp-includes/ assets), posts with block-editor file blocks
 * (two links to each file: its name and "Download"), category archives with
 * `/category/<slug>/page/N/` pagination, a few pages, the Categories and Recent Posts widgets.
 * WordPress writes absolute URLs, so in-site links here are spelled with the request's host.
 */
import type { HtmlSink } from "../html-sink";
import { esc } from "./app-common";
import type { WpModel, WpPost } from "./wordpress-model";

export const WP_VERSION = "6.4.3";
export const WP_PER_PAGE = 10;
export const WP_PAGES: Readonly<Record<string, string>> = { "/about/": "About us", "/publications/": "Publications", "/contact/": "Contact" };

export function wpPage(s: HtmlSink, m: WpModel, siteName: string, title: string, discovery: boolean, body: () => void): void {
  const abs = (p: string) => (s.host === null ? p : `http://${s.host}${p}`);
  s.raw(
    `<!doctype html>\n<html lang="en-US">\n<head>\n<meta charset="UTF-8" />\n<meta name="viewport" content="width=device-width, initial-scale=1.0" />\n` +
      `<meta name='robots' content='max-image-preview:large' />\n<title>${esc(title)} &#8211; ${esc(siteName)}</title>\n` +
      `<link rel="alternate" type="application/rss+xml" title="${esc(siteName)} &raquo; Feed" href="${abs("/feed/")}" />\n` +
      `<link rel='stylesheet' id='wp-block-library-css' href='${abs("/wp-includes/css/dist/block-library/style.min.css?ver=" + WP_VERSION)}' media='all' />\n` +
      `<link rel='stylesheet' id='twenty-twenty-one-style-css' href='${abs("/wp-content/themes/twentytwentyone/style.css?ver=2.1")}' media='all' />\n` +
      `<script src="${abs("/wp-includes/js/jquery/jquery.min.js?ver=3.7.1")}" id="jquery-core-js"></script>\n` +
      (discovery ? `<link rel="https://api.w.org/" href="${abs("/wp-json/")}" />` : "") +
      `<link rel="EditURI" type="application/rsd+xml" title="RSD" href="${abs("/xmlrpc.php?rsd")}" />\n<meta name="generator" content="WordPress ${WP_VERSION}" />\n</head>\n` +
      `<body class="home blog wp-embed-responsive">\n<div id="page" class="site">\n<header id="masthead" class="site-header"><p class="site-title">`,
  );
  s.siteA("/", siteName, "absolute");
  s.raw(`</p><nav id="site-navigation" class="primary-navigation"><ul id="primary-menu-list" class="menu-wrapper">`);
  for (const [p, label] of Object.entries(WP_PAGES)) {
    s.open("li", "menu-item menu-item-type-post_type menu-item-object-page");
    s.siteA(p, label, "absolute");
    s.close("li");
  }
  s.raw(`</ul></nav></header>\n<div id="content" class="site-content"><main id="main" class="site-main">`);
  body();
  s.raw(`</main></div>\n<aside class="widget-area"><section class="widget widget_categories"><h2 class="widget-title">Categories</h2><ul>`);
  for (const c of m.categories) {
    if (c.posts.length === 0) continue; // wp_list_categories hides empty ones
    s.open("li", "cat-item");
    s.siteA(`/category/${c.slug}/`, c.name, "absolute");
    s.text(` (${c.posts.length})`);
    s.close("li");
  }
  s.raw(`</ul></section><section class="widget widget_recent_entries"><h2 class="widget-title">Recent Posts</h2><ul>`);
  for (const p of m.posts.slice(-5).reverse()) {
    s.open("li");
    s.siteA(p.path, p.title, "absolute");
    s.close("li");
  }
  s.raw(`</ul></section></aside>\n<footer id="colophon" class="site-footer"><div class="powered-by">`);
  s.a("https://wordpress.org/", "Proudly powered by WordPress");
  s.raw(`</div></footer></div>\n<script src="${abs("/wp-content/themes/twentytwentyone/assets/js/primary-navigation.js?ver=2.1")}" id="twenty-twenty-one-primary-navigation-script-js"></script>\n</body>\n</html>\n`);
}

/** Post excerpts, then the_posts_pagination (numbered, with Older / Newer). */
export function archive(s: HtmlSink, m: WpModel, heading: string, postIndexes: readonly number[], page: number, pageUrl: (n: number) => string): void {
  s.el("h1", "page-title", heading);
  for (const i of postIndexes.slice((page - 1) * WP_PER_PAGE, page * WP_PER_PAGE)) {
    const p = m.posts[i]!;
    s.open("article", `post-${p.id} post type-post status-publish format-standard hentry entry`);
    s.open("h2", "entry-title default-max-width");
    s.siteA(p.path, p.title, "absolute");
    s.close("h2");
    s.para(p.id, 30, "entry-summary");
    s.siteA(p.path, "Continue reading", "absolute", "more-link");
    s.close("article");
  }
  const pages = Math.max(1, Math.ceil(postIndexes.length / WP_PER_PAGE));
  if (pages === 1) return;
  s.open("nav", "navigation pagination");
  if (page > 1) s.siteA(pageUrl(page - 1), "Newer posts", "absolute", "prev page-numbers");
  for (const n of [...new Set([1, page - 1, page, page + 1, pages])].filter((x) => x >= 1 && x <= pages).sort((a, b) => a - b)) {
    if (n === page) s.el("span", "page-numbers current", String(n));
    else s.siteA(pageUrl(n), String(n), "absolute", "page-numbers");
  }
  if (page < pages) s.siteA(pageUrl(page + 1), "Older posts", "absolute", "next page-numbers");
  s.close("nav");
}

export function postBody(s: HtmlSink, m: WpModel, index: number): void {
  const p: WpPost = m.posts[index]!;
  const cat = m.categories[p.category]!;
  s.open("article", `post-${p.id} post type-post status-publish hentry entry`);
  s.el("h1", "entry-title", p.title);
  s.para(p.id * 3, 70);
  for (const f of p.media) {
    if (f.mime.startsWith("image/")) {
      s.raw(`<figure class="wp-block-image size-large"><img src="${esc(s.host === null ? f.path : `http://${s.host}${f.path}`)}" alt="" class="wp-image-${f.id}"/></figure>`);
    } else if (f.linked) {
      s.raw(`<div class="wp-block-file">`);
      s.siteA(f.path, f.title, "absolute", undefined, `id="wp-block-file--media-${f.id}"`);
      s.siteA(f.path, "Download", "absolute", "wp-block-file__button wp-element-button", "download");
      s.raw(`</div>`);
    }
  }
  s.para(p.id * 3 + 1, 40);
  s.raw(`<footer class="entry-footer"><span class="cat-links">Categorized as `);
  s.siteA(`/category/${cat.slug}/`, cat.name, "absolute");
  s.raw(`</span></footer></article><nav class="navigation post-navigation">`);
  if (index > 0) s.siteA(m.posts[index - 1]!.path, "Previous post", "absolute", "nav-previous");
  if (index + 1 < m.posts.length) s.siteA(m.posts[index + 1]!.path, "Next post", "absolute", "nav-next");
  s.raw(`</nav>`);
}
