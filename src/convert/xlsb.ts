/**
 * checkXlsbImport guards the XLSB -> XLSX step through LibreOffice, which opens an XLSB whose
 * workbook part (xl/workbook.bin) is damaged as a new workbook with one empty sheet and reports
 * success. The package's relationships still name the worksheets, so an XLSX with fewer sheets than
 * that lost them: the document is refused as unreadable instead of answered as empty.
 */
import { AppError } from "../errors";
import { child, descendants, OoxmlPackage } from "./ooxml";
import type { ConvertContext, ConvertInput } from "./types";

export function checkXlsbImport(input: ConvertInput, xlsx: Uint8Array, ctx: ConvertContext): void {
  const declared = declaredWorksheets(input, ctx);
  if (declared === undefined) return;
  const converted = OoxmlPackage.open({ ...input, bytes: xlsx, ext: "xlsx" }, ctx, "XLSX");
  const read = descendants(child(child(converted.xml(converted.mainPart("xl/workbook.xml", "workbook")), "workbook"), "sheets"), "sheet").length;
  if (read < declared) {
    throw new AppError(
      "unreadable_document",
      `XLSB '${input.filename}': LibreOffice read ${read} of the ${declared} worksheets the file names (its workbook part is probably damaged); open and save it again in Excel, or send it as .xlsx`,
    );
  }
}

/** declaredWorksheets counts the worksheet relationships of the workbook part; undefined when our ZIP reader cannot open the package (LibreOffice could, so it is not refused for that). */
function declaredWorksheets(input: ConvertInput, ctx: ConvertContext): number | undefined {
  let pkg: OoxmlPackage;
  try {
    pkg = OoxmlPackage.open(input, ctx, "XLSX");
  } catch (error) {
    if (error instanceof AppError && error.code === "unreadable_document") return undefined;
    throw error;
  }
  const workbook = pkg.relsOfType("", "officeDocument")[0]?.target ?? "xl/workbook.bin";
  return pkg.relsOfType(workbook, "worksheet").length;
}
