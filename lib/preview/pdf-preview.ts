import { getDocumentProxy } from "unpdf";
import type { PreviewLimits } from "./preview-limits";
import { PreviewError, type PdfPreview } from "./preview-types";

/** A PDF's page count, title and first lines of text (of its first pages). */
export async function pdfPreview(bytes: Buffer, limits: PreviewLimits, signal: AbortSignal): Promise<PdfPreview> {
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // A copy: pdf.js takes ownership of (detaches) the buffer it is handed.
    pdf = await getDocumentProxy(new Uint8Array(bytes), { isEvalSupported: false, disableFontFace: true, stopAtErrors: false, verbosity: 0 });
  } catch (error) {
    throw new PreviewError(`not a readable PDF: ${(error as Error).message.slice(0, 200)}`);
  }
  try {
    const lines: string[] = [];
    for (let number = 1; number <= Math.min(pdf.numPages, limits.maxPdfPages) && lines.length < limits.maxLines; number++) {
      if (signal.aborted) break;
      const page = await pdf.getPage(number);
      const content = await page.getTextContent();
      let line = "";
      for (const item of content.items) {
        if (!("str" in item)) continue;
        line += item.str;
        if (item.hasEOL) {
          if (line.trim()) lines.push(line.trim().slice(0, limits.maxCellChars));
          line = "";
        }
      }
      if (line.trim()) lines.push(line.trim().slice(0, limits.maxCellChars));
    }
    const info = (await pdf.getMetadata().catch(() => null))?.info as { Title?: unknown } | undefined;
    const title = typeof info?.Title === "string" && info.Title.trim() ? info.Title.trim().slice(0, limits.maxCellChars) : null;
    return { kind: "pdf", pages: pdf.numPages, lines: lines.slice(0, limits.maxLines), title };
  } catch (error) {
    throw new PreviewError(`not a readable PDF: ${(error as Error).message.slice(0, 200)}`);
  } finally {
    void pdf.destroy();
  }
}
