/**
 * A family site served under version prefixes (`FamilyParams.versions`): each version is the
 * whole site again under `/<version>/`. The site's pages are written with root-relative links as
 * if unversioned; a sink wrapper moves every such link into the page's own version, except links
 * already into a version (the version menu) and the site-wide `/search` and `/admin/` (disallowed
 * once for every version).
 */
import type { HtmlSink, LinkForm } from "../html-sink";
import type { Resource } from "../types";

const SITE_WIDE = ["/search", "/admin/"];

/** `href` as seen from a page of `version`. */
function inVersionHref(href: string, version: string, all: readonly string[]): string {
  if (!href.startsWith("/") || href.startsWith("//")) return href;
  if (SITE_WIDE.some((prefix) => href.startsWith(prefix))) return href;
  if (all.some((v) => href.startsWith(`/${v}/`))) return href;
  return `/${version}${href}`;
}

/** A sink whose root-relative links land in `version`. */
export function versionedSink(s: HtmlSink, version: string, all: readonly string[]): HtmlSink {
  return rewritingSink(s, (href) => inVersionHref(href, version, all));
}

/** A sink that writes every link (anchors, areas, frames, images) through `move`. */
export function rewritingSink(s: HtmlSink, move: (href: string) => string): HtmlSink {
  const overrides: Partial<Record<keyof HtmlSink, unknown>> = {
    a: (href: string, label: string, cls?: string, attrs?: string) => s.a(move(href), label, cls, attrs),
    aWrap: (href: string, cls: string | undefined, inner: () => void, attrs?: string) => s.aWrap(move(href), cls, inner, attrs),
    siteA: (path: string, label: string, form: LinkForm, cls?: string, attrs?: string) => s.siteA(move(path), label, form, cls, attrs),
    area: (href: string, alt: string, coords: string) => s.area(move(href), alt, coords),
    iframe: (src: string, title: string, cls?: string) => s.iframe(move(src), title, cls),
    img: (src: string, alt: string, cls?: string) => s.img(move(src), alt, cls),
  };
  return new Proxy(s, {
    get(target, key) {
      if (key in overrides) return overrides[key as keyof HtmlSink];
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** A resource of one version's copy of the site, as served under that version's prefix. */
export function inVersion(resource: Resource, version: string, all: readonly string[]): Resource {
  switch (resource.kind) {
    case "page":
      return { ...resource, render: (s) => resource.render(versionedSink(s, version, all)) };
    case "redirect":
      return { ...resource, location: inVersionHref(resource.location, version, all) };
    default:
      return resource;
  }
}
