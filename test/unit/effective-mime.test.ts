import { describe, expect, it } from "vitest";
import { dispositionFilename, effectiveMime, mimeOfUrlPath } from "../../lib/crawler/fetch/effective-mime";

const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

describe("dispositionFilename", () => {
  it("reads filename*= (RFC 8187) before filename=, quoted or not", () => {
    expect(dispositionFilename(`attachment; filename="population 2024.xlsx"`)).toBe("population 2024.xlsx");
    expect(dispositionFilename("attachment; filename=table.csv; size=12")).toBe("table.csv");
    expect(dispositionFilename(`attachment; filename="fallback.csv"; filename*=UTF-8''donn%C3%A9es.ods`)).toBe("données.ods");
    expect(dispositionFilename(`attachment; filename*=UTF-8''bad%E9.csv; filename="ok.csv"`)).toBe("ok.csv");
    expect(dispositionFilename(`attachment; filename="a \\"quoted\\" name.pdf"`)).toBe('a "quoted" name.pdf');
    expect(dispositionFilename("inline")).toBeNull();
    expect(dispositionFilename(undefined)).toBeNull();
  });
});

describe("effectiveMime", () => {
  it("names a generic type after the Content-Disposition file name, else the URL's last segment", () => {
    expect(effectiveMime("application/octet-stream", "https://a.org/download.php?id=12", `attachment; filename="population.xlsx"`)).toBe(XLSX);
    expect(effectiveMime("application/force-download", "https://a.org/files/Table.CSV", undefined)).toBe("text/csv");
    expect(effectiveMime("", "https://a.org/report.pdf?v=2", undefined)).toBe("application/pdf");
    expect(effectiveMime("binary/octet-stream", "https://a.org/get?f=1", `attachment; filename=chart.png`)).toBe("image/png");
  });

  it("reads text/plain as the text data format its name says (CSV, JSON, XML, YAML), and as text otherwise", () => {
    expect(effectiveMime("text/plain", "https://raw.example.org/u/repo/main/data/pop.csv", undefined)).toBe("text/csv");
    expect(effectiveMime("text/plain", "https://a.org/get?id=4", `attachment; filename="series.json"`)).toBe("application/json");
    expect(effectiveMime("text/plain", "https://a.org/README.txt", undefined)).toBe("text/plain");
    expect(effectiveMime("text/plain", "https://a.org/report.pdf", undefined)).toBe("text/plain");
    expect(effectiveMime("text/plain", "https://a.org/robots", undefined)).toBe("text/plain");
  });

  it("reads text/html as the type of the file an attachment names (an export script's forgotten Content-Type)", () => {
    expect(effectiveMime("text/html", "https://a.org/export.php?t=12", `attachment; filename="table_12.csv"`)).toBe("text/csv");
    expect(effectiveMime("text/html", "https://a.org/export.php?t=12", `Attachment; filename=report.pdf`)).toBe("application/pdf");
    expect(effectiveMime("text/html", "https://a.org/page.php", `attachment; filename="saved.html"`)).toBe("text/html");
    expect(effectiveMime("text/html", "https://a.org/data.csv", `inline; filename="data.csv"`)).toBe("text/html");
    expect(effectiveMime("text/html", "https://a.org/data.csv", undefined)).toBe("text/html");
  });

  it("keeps a specific Content-Type, and a generic one when no known extension says more", () => {
    expect(effectiveMime("application/json", "https://a.org/data.csv", `attachment; filename="x.xlsx"`)).toBe("application/json");
    expect(effectiveMime("application/zip", "https://a.org/x.csv", undefined)).toBe("application/zip");
    expect(effectiveMime("application/octet-stream", "https://a.org/firmware.bin", undefined)).toBe("application/octet-stream");
    expect(effectiveMime("application/octet-stream", "https://a.org/download/12", undefined)).toBe("application/octet-stream");
    expect(effectiveMime("", "https://a.org/", undefined)).toBe("");
  });
});

describe("mimeOfUrlPath", () => {
  it("reads the extension of the last path segment only, ignoring the query and dotted folders", () => {
    expect(mimeOfUrlPath("https://x.org/dataset/a/resource/b/download/table.CSV?x=1.pdf")).toBe("text/csv");
    expect(mimeOfUrlPath("https://x.org/api/v1.2/data")).toBeUndefined();
    expect(mimeOfUrlPath("https://x.org/files/report.pdf#page=2")).toBe("application/pdf");
  });
});
