/**
 * PUT /api/settings/network with entries limited to ports: canonical entries back, a 400 naming
 * the bad entry, an old list (no ports) still read, and every change in the audit log with the
 * list before and after. The route handler is called with real Requests on a real database.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_ADDRESS_HEADER } from "@/lib/api/client-address";
import { listAuditEvents } from "@/lib/auth/audit-log";
import { NETWORK_POLICY_KEY } from "@/lib/store/queries/get-network-policy";
import { apiRequest, closeRouteDatabase, openRouteDatabase, routeAccount, url, type ErrorBody } from "../helpers/api-routes";
import type { TestDatabase } from "../helpers/test-database";

let t: TestDatabase;
let route: typeof import("@/app/api/settings/network/route");

beforeAll(async () => {
  t = await openRouteDatabase();
  route = await import("@/app/api/settings/network/route");
});
afterAll(() => closeRouteDatabase(t));

const put = (privateNetworks: unknown) =>
  route.PUT(apiRequest(url("/api/settings/network"), { method: "PUT", headers: { [CLIENT_ADDRESS_HEADER]: "192.0.2.7" }, body: JSON.stringify({ privateNetworks }) }));
const audits = () => listAuditEvents(t.db, { actions: ["network-policy-changed"] });

describe("PUT /api/settings/network with ports", () => {
  it("reads a list saved before ports existed, then saves entries with ports in canonical form and audits the change", async () => {
    await t.db.serverSetting.create({ data: { key: NETWORK_POLICY_KEY, value: JSON.stringify({ privateNetworks: ["10.0.0.0/8"] }) } });
    const old = await route.GET(apiRequest(url("/api/settings/network")));
    expect(((await old.json()) as { privateNetworks: string[] }).privateNetworks).toEqual(["10.0.0.0/8"]);

    const response = await put(["10.0.0.0/8", "192.168.1.10:8443,8080", "[FD00::/8]:443"]);
    expect(response.status).toBe(200);
    const after = ["10.0.0.0/8", "192.168.1.10/32:8080,8443", "[fd00::/8]:443"];
    expect(((await response.json()) as { privateNetworks: string[] }).privateNetworks).toEqual(after);
    const [entry, ...rest] = await audits();
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({ action: "network-policy-changed", actorId: routeAccount().user.id, address: "192.0.2.7", details: { before: ["10.0.0.0/8"], after } });
  });

  it("answers 400 naming the bad entry, saves nothing and audits nothing", async () => {
    const before = await audits();
    const response = await put(["10.0.0.0/8", "192.168.1.10/32:99999", "[fd00::/8]443"]);
    expect(response.status).toBe(400);
    expect(((await response.json()) as ErrorBody).error.fields).toEqual({
      "privateNetworks.1": '"192.168.1.10/32:99999" has an invalid port "99999": expected 1 to 65535',
      "privateNetworks.2": '"[fd00::/8]443" is not a network: expected [IPv6 CIDR]:ports, e.g. [fd00::/8]:443',
    });
    expect(await audits()).toEqual(before);
    const saved = await route.GET(apiRequest(url("/api/settings/network")));
    expect(((await saved.json()) as { privateNetworks: string[] }).privateNetworks).toEqual(["10.0.0.0/8", "192.168.1.10/32:8080,8443", "[fd00::/8]:443"]);
  });

  it("does not audit a save that changes nothing", async () => {
    const before = await audits();
    expect((await put(["10.0.0.0/8", "192.168.1.10/32:8080,8443", "[fd00::/8]:443"])).status).toBe(200);
    expect(await audits()).toEqual(before);
  });
});
