import { describe, expect, it } from "vitest";
import { ApplicationActions, enumerationTagPath } from "../../lib/crawler/engine/application-actions";
import { MemorySink } from "../../lib/crawler/engine/memory-sink";
import type { SiteApplications } from "../../lib/crawler/engine/site-applications";

/** Two enumerations per application; the avoid rule is a URL prefix. */
const source: SiteApplications = {
  recognise: () => [],
  chosen: () => [],
  enumerations: (application) =>
    ["a", "b"].map((id) => ({
      key: `${application.recipeId}:${id}`,
      name: `${application.name} ${id}`,
      listsChangesSince: false,
      firstUrl: () => `${application.base}api/${id}`,
      read: () => ({ files: [], records: 0, nextUrl: null }),
    })),
  avoids: (application, url) => url.startsWith(`${application.base}login`),
};

const portal = { recipeId: "portal", name: "Portal", version: "2.1", base: "https://data.example.org/", evidence: ['generator tag "Portal 2.1"'] };

describe("ApplicationActions", () => {
  it("says what it recognised and names each enumeration's action", () => {
    const sink = new MemorySink();
    const actions = new ApplicationActions(source, sink);
    expect(actions.add(portal).map((enumeration) => enumeration.key)).toEqual(["portal:a", "portal:b"]);
    expect(sink.events[0]).toMatchObject({
      kind: "application-recognised",
      message: 'Recognised Portal 2.1 from generator tag "Portal 2.1" — listing files through Portal a, Portal b',
      data: { actions: [{ tagPath: "/application:portal:a", name: "Portal a" }, { tagPath: "/application:portal:b", name: "Portal b" }] },
    });
    expect(actions.avoids("https://data.example.org/login?next=/")).toBe(true);
    expect(actions.avoids("https://data.example.org/dataset/x")).toBe(false);
  });

  it("closes an enumeration once, with the reason, and resumes from its state with progress and closures kept", () => {
    const sink = new MemorySink();
    const actions = new ApplicationActions(source, sink);
    actions.add(portal);
    const a = enumerationTagPath("portal:a");
    const b = enumerationTagPath("portal:b");
    actions.pageRead(a, 40);
    actions.pageRead(a, 2);
    actions.close(b, "https://data.example.org/api/b", "answered 404");
    actions.close(b, "https://data.example.org/api/b", "answered 500");
    expect(sink.events.filter((event) => event.kind === "enumeration-closed").map((event) => event.message)).toEqual([
      "Stopped using Portal b: https://data.example.org/api/b answered 404. The crawl goes on through the site's pages",
    ]);
    const state = JSON.parse(JSON.stringify(actions.toState()));
    const resumed = ApplicationActions.fromState(source, new MemorySink(), state);
    expect(resumed.enumerationOf(b)).toBeNull();
    expect(resumed.enumerationOf(a)?.key).toBe("portal:a");
    expect(resumed.recognised).toEqual([portal]);
    const resumedSink = new MemorySink();
    const again = ApplicationActions.fromState(source, resumedSink, state);
    again.finished(a);
    expect(resumedSink.events[0]?.message).toBe("Portal a listed 42 files in 2 requests");
  });
});
