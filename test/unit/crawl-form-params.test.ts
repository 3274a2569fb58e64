import { describe, expect, it } from "vitest";
import { PARAM_GROUPS } from "../../components/crawl-form/param-fields";
import { SETTINGS_TABLE } from "../../lib/crawler/settings-table";

describe("the New crawl form's Advanced section", () => {
  const items = PARAM_GROUPS.flatMap((group) => [...(group.choices ?? []), ...(group.toggles ?? []), ...group.fields]);

  it("shows every setting of the table once", () => {
    expect(items.map((item) => item.key).sort()).toEqual(Object.keys(SETTINGS_TABLE).sort());
  });

  it("notes each setting's default and the paper's value from the table", () => {
    const note = (key: string) => items.find((item) => item.key === key)!.note;
    expect(note("linkRankSamples")).toBe("Default 32; the paper: 1.");
    expect(note("similarityThreshold")).toBe("Default 0.75, as in the paper.");
    expect(note("barrenDamping")).toBe("Default on; the paper: off.");
    expect(note("groupIndex")).toBe("Default exact; the paper: hnsw.");
    expect(note("longTermCreditDepth")).toBe("Default 2.");
  });

  it("steps whole-number settings by 1 and marks byte sizes", () => {
    const fields = PARAM_GROUPS.flatMap((group) => group.fields);
    const field = (key: string) => fields.find((item) => item.key === key)!;
    expect(field("hnswM")).toMatchObject({ step: "1" });
    expect(field("banditAlpha")).toMatchObject({ step: "any" });
    expect(field("maxTargetBytes")).toMatchObject({ step: "1", bytes: true });
    expect(field("maxSeenUrls").bytes).toBeUndefined();
  });
});
