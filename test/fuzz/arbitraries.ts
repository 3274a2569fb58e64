/** Generators of hostile text shared by the fuzz targets. */
import fc from "fast-check";

/** Any UTF-16 code units, lone surrogates included: what a decoded hostile body may hold. */
export const anyText = (maxLength = 200) => fc.string({ unit: "binary", maxLength });

/** Text made of the characters that matter to URL and header parsers, mixed with any character. */
export function textOf(alphabet: string, maxLength = 60): fc.Arbitrary<string> {
  const chars = [...alphabet];
  return fc.string({
    unit: fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...chars) }, { weight: 1, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }) }),
    maxLength,
  });
}

/** Concatenations of meaningful pieces (tokens of a grammar) and hostile characters. */
export function tokensOf(pieces: readonly string[], maxLength = 30): fc.Arbitrary<string> {
  return fc
    .array(fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...pieces) }, { weight: 1, arbitrary: anyText(4) }), { maxLength })
    .map((parts) => parts.join(""));
}

/** Bytes: random, or text encoded as UTF-8. */
export const anyBytes = (maxLength = 300) =>
  fc.oneof(fc.uint8Array({ maxLength }), anyText(maxLength).map((text) => new Uint8Array(Buffer.from(text, "utf8"))));

/** Page and base URLs: ordinary, IDN, IP, with ports, odd paths, user info. */
export const baseUrl = fc.oneof(
  fc.webUrl({ withQueryParameters: true, size: "small" }),
  fc.constantFrom(
    "http://example.org/",
    "https://www.example.org/a/b/c.html?x=1",
    "http://127.0.0.1:8080/dir/",
    "http://[::1]:3000/a",
    "https://user:pw@example.org/x/y",
    "http://xn--bcher-kva.example/%7Efoo/./bar/../",
    "https://EXAMPLE.org:443/A/%2e%2E/b",
    "http://example.org/a;jsessionid=1234/b?x=1&PHPSESSID=abc",
    "http://münchen.de/straße/",
    "file:///etc/passwd",
    "http://example.org",
  ),
);
